/**
 * One replica of an agent pool: every replica shares one Redis, so an event Buzz delivers to two
 * replicas (a redelivery after a restart, a retry routed elsewhere) is handled once. The wrapper
 * claims through the Redis deduper, commits when the turn ends, releases on a cancel or a throw.
 *
 * Configuration: `BUZZ_AGENT_NPUB`, `REDIS_URL` (e.g. `redis://127.0.0.1:6379`), and an optional
 * `REPLICA` name used in its answers. See docs/dedup.md for the lease and TTL model.
 */
import { randomUUID } from 'node:crypto';
import { agent, methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { createClient } from 'redis';
import { buzzHandlers, connectStdio } from '../src/acp/index.js';
import { createBuzzReader, createDeduper } from '../src/index.js';
import { createRedisStore } from '../src/redis.js';
import { startUp } from './start-up.js';

const replica = process.env.REPLICA ?? 'replica';
// The key first: a misconfigured agent should not wait for Redis to say so.
const reader = await startUp('pooled-agent', () =>
  createBuzzReader({ agentPubkey: process.env.BUZZ_AGENT_NPUB ?? '' }),
);
// No offline queue: while Redis is down, claims fail at once and the deduper's policy applies.
const redis = createClient({ url: process.env.REDIS_URL ?? '', disableOfflineQueue: true });
redis.on('error', () => undefined); // reconnects on its own; failures surface through the deduper
await startUp('pooled-agent', () => redis.connect());
const deduper = createDeduper({ store: createRedisStore({ client: redis }), onStoreError: 'fail-closed' });

const buzz = buzzHandlers({ reader, deduper, missing: 'refuse' }, async ({ params, client, buzz }) => {
  const text = JSON.stringify({ replica, fresh: buzz.fresh.map((event) => event.id) });
  await client.notify(methods.client.session.update, {
    sessionId: params.sessionId,
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
  });
  return { stopReason: 'end_turn' };
});

const connection = connectStdio(
  agent({ name: 'buzz-meta-pooled-agent' })
    .onRequest(methods.agent.initialize, () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }))
    .onRequest(methods.agent.session.new, () => ({ sessionId: randomUUID() }))
    .onRequest(methods.agent.session.prompt, buzz.prompt)
    .onNotification(methods.agent.session.cancel, buzz.cancel),
);
await connection.closed;
await redis.quit();
