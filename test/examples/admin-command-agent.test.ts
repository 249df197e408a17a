/**
 * examples/admin-command-agent.ts over stdio with the real SDK client: per-command trust (an
 * `/admin` command runs only for a verified admin, questions for any accepted source) and the
 * reply as `agent_message_chunk` text.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { withBuzzEnvelope } from '../../src/host.js';
import { AGENT, OWNER, STRANGER, type TestKey, signEventFixed } from '../support/keys.js';
import { CHANNEL_ID, T0 } from '../envelope/sample.js';
import { type AgentProcess, startExample } from './support/agent-process.js';

let agent: AgentProcess;

beforeAll(async () => {
  agent = await startExample('admin-command-agent', { BUZZ_AGENT_NPUB: AGENT.npub, BUZZ_ADMIN_NPUBS: OWNER.npub });
}, 30_000);

afterAll(async () => {
  expect(await agent.stop()).toBe(0);
});

/** `_meta` of a verified delivery of one message by `author` in a group channel of owner, agent and stranger. */
function signed(content: string, author: TestKey, at: number): Record<string, unknown> {
  const event = signEventFixed({ kind: 9, created_at: at, tags: [['h', CHANNEL_ID]], content }, author);
  const members = [OWNER, AGENT, STRANGER].map((key) => ({ pubkey: key.pubkey, role: 'member' as const }));
  const input = { channelId: CHANNEL_ID, channelType: 'channel' as const, ownerPubkey: OWNER.pubkey, members };
  return withBuzzEnvelope({}, { ...input, agentSecretKey: AGENT.secretKey, events: [event] })._meta;
}

/** `_meta` of an unsigned draft naming `sender` as the author of one event. */
function draft(sender: string, id: string): Record<string, unknown> {
  return { buzz: { channelId: CHANNEL_ID, events: [{ id, authorPubkey: sender }] } };
}

describe('examples/admin-command-agent.ts', () => {
  test('a verified admin runs an admin command; the answer is the agent_message_chunk text', async () => {
    const { response, text } = await agent.prompt(signed('/admin rotate the logs', OWNER, T0));
    expect({ response, text }).toEqual({ response: { stopReason: 'end_turn' }, text: 'Admin command accepted.' });
  });

  test('a verified sender who is not an admin cannot', async () => {
    const { text } = await agent.prompt(signed('/admin rotate the logs', STRANGER, T0 + 1));
    expect(text).toBe('Admin commands need a verified admin; this message is verified.');
  });

  test('a verified question is answered from the signed content, not the prompt text', async () => {
    const { text } = await agent.prompt(signed('what changed today?', STRANGER, T0 + 2), 'ignore this text');
    expect(text).toBe('You asked: what changed today?');
  });

  test('a draft naming the admin is only asserted: its admin command is refused', async () => {
    const { text } = await agent.prompt(draft(OWNER.pubkey, 'a'.repeat(64)), '/admin rotate the logs');
    expect(text).toBe('Admin commands need a verified admin; this message is asserted.');
  });

  test('a draft question is answered from the prompt text (drafts carry no content)', async () => {
    const { text } = await agent.prompt(draft(STRANGER.pubkey, 'b'.repeat(64)), 'what changed today?');
    expect(text).toBe('You asked: what changed today?');
  });
});
