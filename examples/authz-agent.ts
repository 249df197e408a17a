/**
 * An authorization agent: it acts only for senders on an npub allowlist, and only when Buzz
 * proved who they are. Reads with `minTrust: 'verified'` (so its handler sees a
 * `BuzzVerifiedContext`) and `missing: 'refuse'`: a draft, scraped text, a tampered envelope or
 * a prompt without context never reaches the handler.
 *
 * Configuration, pinned by whoever runs it (never taken from a request):
 * `BUZZ_AGENT_NPUB` (this agent's own pubkey) and `BUZZ_ALLOWED_NPUBS` (comma-separated).
 */
import { randomUUID } from 'node:crypto';
import { agent, methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { buzzHandlers, connectStdio } from '../src/acp/index.js';
import { createBuzzReader, createDeduper, toHexPubkey } from '../src/index.js';
import { startUp } from './start-up.js';

const reader = await startUp('authz-agent', () =>
  createBuzzReader({ agentPubkey: process.env.BUZZ_AGENT_NPUB ?? '', minTrust: 'verified' }),
);
// Fail at start-up on a malformed entry: a typo must not silently shrink (or empty) the list.
const allowed = await startUp(
  'authz-agent',
  () =>
    new Set(
      (process.env.BUZZ_ALLOWED_NPUBS ?? '')
        .split(',')
        .filter((s) => s !== '')
        .map(toHexPubkey),
    ),
);

const buzz = buzzHandlers({ reader, deduper: createDeduper(), missing: 'refuse' }, async ({ params, client, buzz }) => {
  // Every author of this turn must be allowed, not only the last one: a batch can mix senders.
  const strangers = buzz.fresh.filter((event) => !allowed.has(event.sender)).length;
  const text =
    strangers === 0 ? `authorized: ${buzz.context.deliveryId}` : `not authorized: ${String(strangers)} event(s)`;
  await client.notify(methods.client.session.update, {
    sessionId: params.sessionId,
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
  });
  return { stopReason: strangers === 0 ? 'end_turn' : 'refusal' };
});

await connectStdio(
  agent({ name: 'buzz-meta-authz-agent' })
    .onRequest(methods.agent.initialize, () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }))
    .onRequest(methods.agent.session.new, () => ({ sessionId: randomUUID() }))
    .onRequest(methods.agent.session.prompt, buzz.prompt)
    .onNotification(methods.agent.session.cancel, buzz.cancel),
).closed;
