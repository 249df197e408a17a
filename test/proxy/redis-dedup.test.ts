/**
 * `buzz-meta proxy --dedup redis://…` with a real redis-server: two proxies in front of two agents
 * share one memory of what was handled, as a pool of replicas would, so a delivery handled behind
 * one is answered `all-seen` by the other; `--dedup-prefix` names the keys.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { AGENT, OWNER, signEventFixed } from '../support/keys.js';
import { type RedisServer, sendRedisCommand, startRedisServer } from '../support/redis-server.js';
import { CHANNEL_ID, T0, envelopeOf, jsonCopy } from '../envelope/sample.js';
import { startProxied } from './support/proxied.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
}, 30_000);
afterAll(async () => {
  await redis.dispose();
});

test('two proxies sharing one Redis: a delivery handled behind one is answered by the other', async () => {
  const options = ['--agent-pubkey', AGENT.npub, '--dedup', redis.url, '--dedup-prefix', 'pool-test:'];
  const [first, second] = await Promise.all([startProxied(options), startProxied(options)]);
  const event = signEventFixed({ kind: 9, created_at: T0, tags: [['h', CHANNEL_ID]], content: 'once' }, OWNER);
  const buzz = jsonCopy(envelopeOf({ channelId: CHANNEL_ID, ownerPubkey: OWNER.pubkey, events: [event] }));

  const handled = await first.prompt('echo', { buzz });
  expect(handled.stopReason).toBe('end_turn');
  expect(await second.prompt('echo', { buzz })).toEqual({
    stopReason: 'end_turn',
    _meta: { buzzMeta: { outcome: 'all-seen', seen: 1 } },
  });
  expect(await sendRedisCommand(redis.port, 'DBSIZE')).toBe(':1\r\n');
  expect(await sendRedisCommand(redis.port, 'RANDOMKEY')).toMatch(/^pool-test:/);
  expect(await Promise.all([first.stop(), second.stop()])).toEqual([0, 0]);
}, 30_000);
