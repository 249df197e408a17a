/**
 * A bridge in the style of muxi's acp-bridge: an ACP agent that forwards each Buzz turn to an
 * upstream service with a memory-partition id, `buzz:channel:<uuid>` or `buzz:pubkey:<hex>`
 * (the strings acp-bridge sends today from scraped text; here they come from `_meta.buzz`).
 *
 * Configuration: `BUZZ_AGENT_NPUB`, `UPSTREAM_URL` (receives `POST` JSON
 * `{ partitionId, trust, text }` and answers `{ reply }`), `PARTITION_UNIT` (`channel`, the
 * default, or `sender`). The trust label travels with the id: the upstream decides what an
 * `asserted` or `scraped` id may unlock.
 */
import { randomUUID } from 'node:crypto';
import { agent, methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { buzzHandlers, connectStdio } from '../src/acp/index.js';
import { createBuzzReader, partitionId } from '../src/index.js';
import { startUp } from './start-up.js';

const upstream = process.env.UPSTREAM_URL ?? '';
const unit = process.env.PARTITION_UNIT === 'sender' ? 'sender' : 'channel';
const reader = await startUp('bridge', () => createBuzzReader({ agentPubkey: process.env.BUZZ_AGENT_NPUB ?? '' }));

const buzz = buzzHandlers({ reader, missing: 'refuse' }, async ({ params, client, signal, buzz }) => {
  const partition = partitionId(buzz.context, { unit });
  const text = params.prompt.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n\n');
  const response = await fetch(upstream, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ partitionId: partition.id, trust: buzz.context.trust, text }),
    signal, // session/cancel aborts the upstream call
  });
  if (!response.ok) throw new Error(`upstream answered ${String(response.status)}`);
  const { reply } = (await response.json()) as { reply?: unknown };
  await client.notify(methods.client.session.update, {
    sessionId: params.sessionId,
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: String(reply) } },
  });
  return { stopReason: 'end_turn' };
});

await connectStdio(
  agent({ name: 'buzz-meta-bridge' })
    .onRequest(methods.agent.initialize, () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }))
    .onRequest(methods.agent.session.new, () => ({ sessionId: randomUUID() }))
    .onRequest(methods.agent.session.prompt, buzz.prompt)
    .onNotification(methods.agent.session.cancel, buzz.cancel),
).closed;
