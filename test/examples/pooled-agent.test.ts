/**
 * examples/pooled-agent.ts: two replicas (two processes) sharing one real redis-server. A
 * delivery handled by one replica is `all-seen` for the other; a cancelled turn is released in
 * Redis, so the other replica handles the retry once. A third process is another agent (another
 * pinned key) on the same Redis: a message mentioning both agents is handled by each.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { AGENT, OWNER, STRANGER } from '../support/keys.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';
import { CHANNEL_ID, sampleEnvelope } from '../envelope/sample.js';
import { type AgentProcess, startExample } from './support/agent-process.js';

let redis: RedisServer;
let a: AgentProcess;
let b: AgentProcess;
let other: AgentProcess;

beforeAll(async () => {
  redis = await startRedisServer();
  const env = { BUZZ_AGENT_NPUB: AGENT.npub, REDIS_URL: redis.url };
  [a, b, other] = await Promise.all([
    startExample('pooled-agent', { ...env, REPLICA: 'a' }),
    startExample('pooled-agent', { ...env, REPLICA: 'b' }),
    startExample('pooled-agent', { ...env, BUZZ_AGENT_NPUB: STRANGER.npub, REPLICA: 'other agent' }),
  ]);
  // Torn down only when set up: a beforeAll that failed (no redis-server) leaves nothing to tear down.
  return async () => {
    expect(await Promise.all([a.stop(), b.stop(), other.stop()])).toEqual([0, 0, 0]);
    await redis.dispose();
  };
}, 30_000);

describe('examples/pooled-agent.ts', () => {
  test('a delivery handled by one replica is all-seen for the other', async () => {
    const envelope = sampleEnvelope();
    const first = await a.prompt({ buzz: envelope });
    expect(JSON.parse(first.text)).toEqual({ replica: 'a', fresh: envelope.events.map((e) => e.id) });
    const second = await b.prompt({ buzz: envelope });
    expect(second).toEqual({
      response: { stopReason: 'end_turn', _meta: { buzzMeta: { outcome: 'all-seen', seen: 2 } } },
      text: '',
    });
  });

  test('drafts are deduped by event id across replicas too', async () => {
    const draft = {
      channelId: CHANNEL_ID,
      channelType: 'dm',
      events: [{ id: 'e'.repeat(64), sender: OWNER.pubkey, kind: 9, createdAt: 1 }],
    };
    const first = await b.prompt({ buzz: draft });
    expect(JSON.parse(first.text)).toEqual({ replica: 'b', fresh: ['e'.repeat(64)] });
    expect((await a.prompt({ buzz: draft })).response._meta).toEqual({ buzzMeta: { outcome: 'all-seen', seen: 1 } });
  });

  test('two agents on one Redis, both mentioned in one message: each handles it (keys namespaced by the pinned key)', async () => {
    const draft = {
      channelId: CHANNEL_ID,
      channelType: 'channel',
      events: [{ id: 'f'.repeat(64), sender: OWNER.pubkey, kind: 9, createdAt: 2 }],
    };
    // Buzz sends the message to each mentioned agent; replica a answers for the first agent.
    const [mine, theirs] = await Promise.all([a.prompt({ buzz: draft }), other.prompt({ buzz: draft })]);
    expect(JSON.parse(mine.text)).toEqual({ replica: 'a', fresh: ['f'.repeat(64)] });
    expect(JSON.parse(theirs.text)).toEqual({ replica: 'other agent', fresh: ['f'.repeat(64)] });
    // Within each agent the pool still dedups: the first agent's other replica finds it handled.
    expect((await b.prompt({ buzz: draft })).response._meta).toEqual({ buzzMeta: { outcome: 'all-seen', seen: 1 } });
  });
});
