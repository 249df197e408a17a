/**
 * Per-command trust, and replying to the user (docs/recipes.md shows its handler, importing
 * 'buzz-meta'; test/examples/admin-command-agent.test.ts and examples/legacy-path-test.ts run
 * it). Anyone may ask a question, whatever the source (a signed envelope, a draft, prompt text);
 * an `/admin` command runs only when Buzz proved its sender (`verified`) and that sender is on
 * the admin list.
 *
 * Configuration, pinned by whoever runs it: `BUZZ_AGENT_NPUB` (this agent's own key) and
 * `BUZZ_ADMIN_NPUBS` (comma-separated).
 */
import { randomUUID } from 'node:crypto';
import { agent, methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { buzzHandlers, connectStdio } from '../src/acp/index.js';
import { createBuzzReader, createDeduper, toHexPubkey } from '../src/index.js';
import { startUp } from './start-up.js';

// Every source, drafts and prompt text too (the default minTrust): most hosts send no signed envelope yet.
const reader = await startUp('admin-command-agent', () =>
  createBuzzReader({ agentPubkey: process.env.BUZZ_AGENT_NPUB ?? '' }),
);
const admins = await startUp(
  'admin-command-agent',
  () =>
    new Set(
      (process.env.BUZZ_ADMIN_NPUBS ?? '')
        .split(',')
        .filter((npub) => npub !== '')
        .map(toHexPubkey),
    ),
);

const buzz = buzzHandlers({ reader, deduper: createDeduper(), missing: 'refuse' }, async ({ params, client, buzz }) => {
  const last = buzz.context.events.at(-1); // the message this turn answers
  // A draft carries no content: its words are then only in the prompt text.
  const words = last?.content ?? params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  const provenAdmin = buzz.context.trust === 'verified' && last !== undefined && admins.has(last.sender);

  let answer: string;
  if (!words.trimStart().startsWith('/admin')) answer = `You asked: ${words}`;
  else if (provenAdmin) answer = 'Admin command accepted.';
  else answer = `Admin commands need a verified admin; this message is ${buzz.context.trust}.`;

  // The reply: streamed to the host as agent_message_chunk updates of this session.
  await client.notify(methods.client.session.update, {
    sessionId: params.sessionId,
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: answer } },
  });
  return { stopReason: 'end_turn' };
});

await connectStdio(
  agent({ name: 'buzz-meta-admin-command-agent' })
    .onRequest(methods.agent.initialize, () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }))
    .onRequest(methods.agent.session.new, () => ({ sessionId: randomUUID() }))
    .onRequest(methods.agent.session.prompt, buzz.prompt)
    .onNotification(methods.agent.session.cancel, buzz.cancel),
).closed;
