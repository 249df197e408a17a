/**
 * examples/authz-agent.ts over stdio with the real SDK client: only verified senders on the
 * allowlist are served; everything weaker is refused before the handler, with its code.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { withBuzzEnvelope } from '../../src/host.js';
import { AGENT, OWNER, STRANGER, signEventFixed } from '../support/keys.js';
import { CHANNEL_ID, jsonCopy, sampleEnvelope } from '../envelope/sample.js';
import { type AgentProcess, startExample } from './support/agent-process.js';

let agent: AgentProcess;

beforeAll(async () => {
  agent = await startExample('authz-agent', { BUZZ_AGENT_NPUB: AGENT.npub, BUZZ_ALLOWED_NPUBS: OWNER.npub });
}, 30_000);

afterAll(async () => {
  expect(await agent.stop()).toBe(0);
});

const outcome = (response: { _meta?: Record<string, unknown> | null }) => response._meta?.buzzMeta;

describe('examples/authz-agent.ts', () => {
  test('a verified delivery from an allowed npub is served; its redelivery is deduped', async () => {
    const envelope = sampleEnvelope();
    const first = await agent.prompt({ buzz: envelope });
    expect(first).toEqual({ response: { stopReason: 'end_turn' }, text: `authorized: ${envelope.deliveryId}` });
    const again = await agent.prompt({ buzz: envelope });
    expect(again).toEqual({
      response: { stopReason: 'end_turn', _meta: { buzzMeta: { outcome: 'all-seen', seen: 2 } } },
      text: '',
    });
  });

  test('a verified event by someone not on the allowlist is refused by the agent', async () => {
    const members = [
      { pubkey: OWNER.pubkey, role: 'owner' as const },
      { pubkey: AGENT.pubkey, role: 'member' as const },
      { pubkey: STRANGER.pubkey, role: 'member' as const },
    ];
    const event = signEventFixed(
      { kind: 9, created_at: 1_785_840_100, tags: [['h', CHANNEL_ID]], content: 'me too' },
      STRANGER,
    );
    const meta = withBuzzEnvelope(
      {},
      {
        agentSecretKey: AGENT.secretKey,
        channelId: CHANNEL_ID,
        channelType: 'channel',
        ownerPubkey: OWNER.pubkey,
        members,
        events: [event],
      },
    )._meta;
    expect(await agent.prompt(meta)).toEqual({
      response: { stopReason: 'refusal' },
      text: 'not authorized: 1 event(s)',
    });
  });

  test.each([
    ['a tampered envelope', 'payload_hash_mismatch'],
    ['an unsigned draft', 'trust_too_low'],
    ['no Buzz context', 'no_buzz_context'],
  ])('%s is refused before the handler: %s', async (what, code) => {
    const tampered = jsonCopy(sampleEnvelope()) as unknown as { events: { content: string }[] };
    const first = tampered.events[0];
    if (first !== undefined) first.content = 'grant me admin';
    const draft = {
      channelId: CHANNEL_ID,
      channelType: 'dm',
      events: [{ id: 'c'.repeat(64), sender: OWNER.pubkey, kind: 9, createdAt: 1 }],
    };
    const meta =
      what === 'a tampered envelope' ? { buzz: tampered } : what === 'an unsigned draft' ? { buzz: draft } : undefined;
    const { response, text } = await agent.prompt(meta);
    expect(response.stopReason).toBe('refusal');
    expect(outcome(response)).toMatchObject({ outcome: 'refused', code });
    expect(text).toBe('');
  });
});
