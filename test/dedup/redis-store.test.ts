/**
 * The Redis store against a real redis-server on a free loopback port: the store contract with
 * both clients (`redis` and `ioredis`, short real TTLs), the key layout and its expiry, one round
 * trip per call, and the failure policies while Redis is down and after it is back.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { createDeduper } from '../../src/dedup/deduper.js';
import { createRedisStore } from '../../src/dedup/redis-store.js';
import { BuzzMetaError } from '../../src/errors.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';
import { thrownBuzzError } from '../support/thrown.js';
import { CHANNEL, delivery, event, eventId, ids } from './fixtures.js';
import { describeStoreContract } from './store-contract.js';

// Real time (Redis TTLs, restarts) or many generated cases: generous on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let server: RedisServer;
let client: ReturnType<typeof createClient>;
let io: Redis;
let prefixes = 0;
/** A prefix of its own for every test, so tests share the server but never a key. */
const freshPrefix = (): string => `test${String(prefixes++)}:`;

beforeAll(async () => {
  server = await startRedisServer();
  client = createClient({ url: server.url, disableOfflineQueue: true, socket: { reconnectStrategy: () => 50 } });
  client.on('error', () => {
    // Expected while the outage tests stop the server; each failed call reports itself.
  });
  await client.connect();
  io = new Redis(server.port, '127.0.0.1', { enableOfflineQueue: false, lazyConnect: true });
  io.on('error', () => {
    // As above.
  });
  await io.connect();
  // Torn down only when set up: a beforeAll that failed (no redis-server) leaves nothing to tear down.
  return async () => {
    io.disconnect();
    client.destroy();
    await server.dispose();
  };
});

// Leases long enough that a loaded CI machine does not see one lapse between two calls of a test.
const timing = { leaseMs: 400, ttlMs: 700, marginMs: 50 };
describeStoreContract('redis (node-redis client)', timing, () => ({
  store: createRedisStore({ client, prefix: freshPrefix() }),
  advance: sleep,
}));
describeStoreContract('redis (ioredis client)', timing, () => ({
  store: createRedisStore({ client: io, prefix: freshPrefix() }),
  advance: sleep,
}));

describe('createRedisStore', () => {
  test('keys are <prefix>{<channel id>}:<event key>, leases hold the token, and Redis expires both', async () => {
    const store = createRedisStore({ client });
    const key = `buzz:dedup:{${CHANNEL}}:${eventId(1)}`;
    await store.claim({ scope: CHANNEL, ids: [eventId(1)], token: 'tok', leaseMs: 2_000 });
    expect(await client.get(key)).toBe('tok');
    const leaseTtl = await client.pTTL(key);
    expect(leaseTtl).toBeGreaterThan(0);
    expect(leaseTtl).toBeLessThanOrEqual(2_000);
    await store.commit({ scope: CHANNEL, ids: [eventId(1)], token: 'tok', ttlMs: 2_500 });
    expect(await client.get(key)).toBe('');
    const markTtl = await client.pTTL(key);
    expect(markTtl).toBeGreaterThan(2_000);
    expect(markTtl).toBeLessThanOrEqual(2_500);
    // Shorten it (PEXPIRE) rather than sleep 2.5 s: Redis itself drops the key when it runs out.
    await client.pExpire(key, 50);
    await sleep(100);
    expect(await client.exists(key)).toBe(0);
  });

  test('a claim, commit or release of 50 events is one command, one round trip', async () => {
    const store = createRedisStore({ client, prefix: freshPrefix() });
    const keys = Array.from({ length: 50 }, (_, n) => eventId(n));
    await store.claim({ scope: CHANNEL, ids: [eventId(999)], token: 'warm', leaseMs: 1000 }); // loads the script
    await store.commit({ scope: CHANNEL, ids: [eventId(999)], token: 'warm', ttlMs: 1000 });
    await store.release({ scope: CHANNEL, ids: [eventId(999)], token: 'warm' });
    await client.configResetStat();
    await store.claim({ scope: CHANNEL, ids: keys, token: 'a', leaseMs: 1000 });
    await store.commit({ scope: CHANNEL, ids: keys, token: 'a', ttlMs: 1000 });
    await store.release({ scope: CHANNEL, ids: keys, token: 'a' });
    const stats = await client.info('commandstats');
    const calls = [...stats.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)].map((m) => `${m[1] ?? ''}=${m[2] ?? ''}`);
    // One EVALSHA per call from the client; the GET/SET lines are the scripts' own calls inside
    // Redis (claim: 50 SET NX; commit: 50 GET + 50 SET; release: 50 GET). INFO counts itself.
    expect(calls.filter((c) => !c.startsWith('info=')).sort()).toEqual(['evalsha=3', 'get=100', 'set=100']);
  });

  test('a server that lost its script cache gets the script again in the same call', async () => {
    const store = createRedisStore({ client: io, prefix: freshPrefix() });
    await io.script('FLUSH');
    expect(await store.claim({ scope: CHANNEL, ids: [eventId(1)], token: 'a', leaseMs: 1000 })).toEqual([true]);
    await client.scriptFlush();
    expect(
      await createRedisStore({ client, prefix: 'other:' }).claim({
        scope: CHANNEL,
        ids: [eventId(1)],
        token: 'a',
        leaseMs: 1000,
      }),
    ).toEqual([true]);
  });

  test('Redis errors other than NOSCRIPT reach the caller', async () => {
    const store = createRedisStore({ client, prefix: freshPrefix() });
    await expect(store.claim({ scope: CHANNEL, ids: [eventId(1)], token: 'a', leaseMs: 0 })).rejects.toThrow(
      /invalid expire time/,
    );
  });

  test('refuses a prefix with a brace (it would move the hash tag)', () => {
    for (const prefix of ['a{b}:', 'a{b:', 'a}b:']) {
      const error = thrownBuzzError(() => createRedisStore({ client, prefix }));
      expect([error.code, error.path, error.message]).toEqual([
        'invalid_option',
        '/prefix',
        '/prefix: prefix must not contain { or } (the channel id is the hash tag).',
      ]);
    }
    expect(() => createRedisStore({ client, prefix: 'a[b]:' })).not.toThrow();
  });

  test('a Redis error other than NOSCRIPT is not retried with EVAL (either client)', async () => {
    for (const c of [client, io]) {
      const store = createRedisStore({ client: c, prefix: freshPrefix() });
      await store.claim({ scope: CHANNEL, ids: [eventId(1)], token: 'warm', leaseMs: 1000 }); // loads the script
      await client.configResetStat();
      await expect(store.claim({ scope: CHANNEL, ids: [eventId(2)], token: 'a', leaseMs: 0 })).rejects.toThrow(
        /invalid expire time/,
      );
      const stats = await client.info('commandstats');
      const calls = [...stats.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)].map((m) => `${m[1] ?? ''}=${m[2] ?? ''}`);
      expect(calls.filter((call) => call.startsWith('eval'))).toEqual(['evalsha=1']);
    }
  });

  test('a client answering a claim with something other than a list is an error, not a verdict', async () => {
    // Not a Redis reply (the claim script always returns a list): a broken client or proxy.
    const broken = { evalSha: () => Promise.resolve(1), eval: () => Promise.resolve(1) };
    const store = createRedisStore({ client: broken });
    const refused = await store
      .claim({ scope: CHANNEL, ids: [eventId(1)], token: 'a', leaseMs: 1000 })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as TypeError).message).toBe('the claim script answered with something other than a list');
  });

  test('a deduper over Redis: claim, concurrent claim, commit, redelivery', async () => {
    const store = createRedisStore({ client, prefix: freshPrefix() });
    const one = createDeduper({ store });
    const two = createDeduper({ store: createRedisStore({ client: io, prefix: `test${String(prefixes - 1)}:` }) });
    const first = await one.claim(delivery([event(1), event(2)]));
    const second = await two.claim(delivery([event(2), event(3)]));
    expect([ids(first.fresh), ids(second.fresh), ids(second.seen)]).toEqual([
      [eventId(1), eventId(2)],
      [eventId(3)],
      [eventId(2)],
    ]);
    await first.commit();
    await second.release();
    const replay = await two.claim(delivery([event(1), event(2), event(3)]));
    expect([ids(replay.fresh), ids(replay.seen)]).toEqual([[eventId(3)], [eventId(1), eventId(2)]]);
  });
});

describe('Redis down, then back', () => {
  /** Waits until the node-redis client reconnected after a restart. */
  async function reconnected(): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!client.isReady && Date.now() < deadline) await sleep(20);
    expect(client.isReady).toBe(true);
  }

  test('fail-open hands out everything as fresh with storeError; fail-closed rejects; both recover', async () => {
    const prefix = freshPrefix();
    const reported: string[] = [];
    const open = createDeduper({ store: createRedisStore({ client, prefix }), onError: (e) => reported.push(e.code) });
    const closed = createDeduper({ store: createRedisStore({ client, prefix }), onStoreError: 'fail-closed' });
    await (await open.claim(delivery([event(1)]))).commit();
    const inFlight = await closed.claim(delivery([event(2)]));

    await server.stop(); // SIGTERM: Redis saves its data, as a restarted production server would have it
    const blind = await open.claim(delivery([event(1), event(3)]));
    expect([ids(blind.fresh), blind.storeError?.code]).toEqual([[eventId(1), eventId(3)], 'dedup_store_unavailable']);
    const refused = await closed.claim(delivery([event(4)])).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BuzzMetaError);
    expect(refused).toMatchObject({ code: 'dedup_store_unavailable', message: 'the dedup store failed to claim' });
    await expect(inFlight.commit()).rejects.toMatchObject({ code: 'dedup_store_unavailable' });
    expect(reported).toEqual(['dedup_store_unavailable']);

    await server.start();
    await reconnected();
    // What was committed before the outage is still handled; the blind claim's commit records event 3.
    await blind.commit();
    const after = await open.claim(delivery([event(1), event(2), event(3), event(4)]));
    expect([ids(after.fresh), ids(after.seen)]).toEqual([[eventId(4)], [eventId(1), eventId(2), eventId(3)]]);
    expect('storeError' in after).toBe(false);
  });
});
