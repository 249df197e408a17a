/**
 * `buzz-meta proxy --dedup redis://…` with a real redis-server: two proxies in front of two agents
 * share one memory of what was handled, as a pool of replicas would, so a delivery handled behind
 * one is answered `all-seen` by the other; `--dedup-prefix` names the keys. With Redis down, a
 * fail-open proxy tells the agent `dedupBypassed`, a fail-closed one answers the host with the
 * error `buzz-meta/acp` sends (`-32603`, the stable code in `data`), and both still exit at once
 * when the host leaves (the clean-up of the failed claim does not hold the process).
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

/** The JSON-RPC error a request rejected with, as the host got it. */
function wireError(error: unknown): unknown {
  const { code, message, data } = error as { code: unknown; message: unknown; data: unknown };
  return { code, message, data };
}

test('Redis down: fail-open forwards with dedupBypassed, fail-closed answers dedup_store_unavailable; both exit at once', async () => {
  const options = ['--agent-pubkey', AGENT.npub, '--dedup', redis.url];
  const [open, closed] = await Promise.all([startProxied(options), startProxied([...options, '--dedup-fail-closed'])]);
  const event = signEventFixed({ kind: 9, created_at: T0 + 1, tags: [['h', CHANNEL_ID]], content: 'down' }, OWNER);
  const buzz = jsonCopy(envelopeOf({ channelId: CHANNEL_ID, ownerPubkey: OWNER.pubkey, events: [event] }));
  await redis.stop();
  const forwarded = await open.prompt('echo', { buzz });
  const context = (forwarded._meta?.received as { buzzContext: Record<string, unknown> }).buzzContext;
  expect([context.dedup, context.dedupBypassed]).toEqual([true, 'the dedup store failed to claim']);
  expect((context.events as { fresh: boolean }[]).map((e) => e.fresh)).toEqual([true]);
  await open.stderrHas('dedup store: the dedup store failed to claim');

  expect(await closed.prompt('echo', { buzz }).then(() => null, wireError)).toEqual({
    code: -32603,
    message: 'Internal error',
    data: {
      details: 'the dedup store failed to claim',
      code: 'dedup_store_unavailable',
      buzzMeta: { outcome: 'dedup-unavailable' },
    },
  });
  expect(closed.stderr()).not.toContain('fixture: prompt echo');
  expect(await Promise.all([open.stop(), closed.stop()])).toEqual([0, 0]);
}, 30_000);
