/**
 * The Redis store on a real three-master Redis Cluster (test/support/redis-cluster.ts), through
 * the documented client wiring of node-redis `createCluster` and ioredis `Cluster`
 * (examples/redis-node-cluster.ts, examples/redis-ioredis-cluster.ts): the store contract with
 * both clients, channels spread over every master with no CROSSSLOT, one EVALSHA per call, and a
 * frozen master (`DEBUG SLEEP`) under both policies: claims fail within the deadline, then the
 * same client recovers.
 */
import type { Cluster } from 'ioredis';
import type { RedisClusterType } from 'redis';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { ioredisClusterDeduper } from '../../examples/redis-ioredis-cluster.js';
import { nodeRedisClusterDeduper } from '../../examples/redis-node-cluster.js';
import { createDeduper, type StoreErrorPolicy } from '../../src/dedup/deduper.js';
import { createRedisStore } from '../../src/dedup/redis-store.js';
import type { DedupStore } from '../../src/dedup/types.js';
import { type RedisCluster, startRedisCluster } from '../support/redis-cluster.js';
import { sendRedisCommand } from '../support/redis-server.js';
import { CHANNEL, delivery, event, eventId, ids } from './fixtures.js';
import { describeStoreContract } from './store-contract.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let cluster: RedisCluster;
let node: RedisClusterType;
let io: Cluster;
let prefixes = 0;
const freshPrefix = (): string => `cluster${String(prefixes++)}:`;

beforeAll(async () => {
  cluster = await startRedisCluster();
  node = (await nodeRedisClusterDeduper(cluster.ports.map((port) => `redis://127.0.0.1:${String(port)}`))).cluster;
  io = (await ioredisClusterDeduper(cluster.nodes)).cluster;
  // Torn down only when set up: a beforeAll that failed (no redis-server) leaves nothing to tear down.
  return async () => {
    io.disconnect();
    node.destroy();
    await cluster.dispose();
  };
});

const timing = { leaseMs: 400, ttlMs: 700, marginMs: 50 };
describeStoreContract('redis cluster (node-redis createCluster)', timing, () => ({
  store: createRedisStore({ client: node, prefix: freshPrefix() }),
  advance: sleep,
}));
describeStoreContract('redis cluster (ioredis Cluster)', timing, () => ({
  store: createRedisStore({ client: io, prefix: freshPrefix() }),
  advance: sleep,
}));

/** `cmdstat_<name>` calls summed over every master. */
async function calls(name: string): Promise<number> {
  let total = 0;
  for (const port of cluster.ports) {
    const stats = await sendRedisCommand(port, 'INFO commandstats');
    total += Number(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
  }
  return total;
}

describe('createRedisStore on Redis Cluster', () => {
  test('300 channels spread over every master: each claim and commit lands in its slot, no CROSSSLOT', async () => {
    const prefix = freshPrefix();
    const deduper = createDeduper({ store: createRedisStore({ client: node, prefix }), onStoreError: 'fail-closed' });
    const channels = Array.from(
      { length: 300 },
      (_, n) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
    );
    for (const channel of channels) {
      const claim = await deduper.claim(delivery([event(1), event(2)], [], channel));
      expect(ids(claim.fresh)).toEqual([eventId(1), eventId(2)]);
      await claim.commit();
    }
    const sizes = await Promise.all(
      cluster.ports.map(async (port) => Number((await sendRedisCommand(port, 'DBSIZE')).slice(1))),
    );
    expect(sizes.every((size) => size > 0)).toBe(true);
    const again = createDeduper({ store: createRedisStore({ client: io, prefix }), onStoreError: 'fail-closed' });
    for (const channel of channels.slice(0, 30)) {
      expect(ids((await again.claim(delivery([event(1), event(2)], [], channel))).handled)).toEqual([
        eventId(1),
        eventId(2),
      ]);
    }
  });

  test('a claim, commit and release of 50 events is one EVALSHA each, with either client', async () => {
    const events = Array.from({ length: 50 }, (_, n) => event(n));
    for (const client of [node, io]) {
      const deduper = createDeduper({
        store: createRedisStore({ client, prefix: freshPrefix() }),
        onStoreError: 'fail-closed',
      });
      await (await deduper.claim(delivery([event(999)]))).commit(); // loads the script where needed
      const before = await calls('evalsha');
      const first = await deduper.claim(delivery(events));
      await first.commit();
      const second = await deduper.claim(delivery([...events, event(51)]));
      await second.release();
      expect(await calls('evalsha')).toBe(before + 4);
    }
  });
});

describe('a frozen master (DEBUG SLEEP)', () => {
  const clients = [
    ['node-redis', () => node],
    ['ioredis', () => io],
  ] as const;
  const policies: StoreErrorPolicy[] = ['fail-open', 'fail-closed'];
  for (const [name, client] of clients) {
    for (const policy of policies) {
      test(`${name}, ${policy}: claims fail within the deadline while it sleeps, then the same client recovers`, async () => {
        const prefix = freshPrefix();
        const store: DedupStore = createRedisStore({ client: client(), prefix });
        const deduper = createDeduper({ store, onStoreError: policy, callTimeoutMs: 300 });
        const port = await cluster.masterOf(`${prefix}{${CHANNEL}}:x`);
        const asleep = sendRedisCommand(port, 'DEBUG SLEEP 1.5');
        await sleep(50);
        const started = performance.now();
        const outcome = await deduper.claim(delivery([event(1)])).then(
          (claim) => (claim.storeError === undefined ? 'claimed' : `fresh with ${claim.storeError.code}`),
          (error: unknown) => `rejected with ${(error as { code?: string }).code ?? '?'}`,
        );
        const elapsed = performance.now() - started;
        expect(outcome).toBe(
          policy === 'fail-open' ? 'fresh with dedup_store_unavailable' : 'rejected with dedup_store_unavailable',
        );
        // Within the deadline (plus a tick and a loaded machine), well before the master wakes.
        expect(elapsed).toBeLessThan(1_000);
        await asleep;
        let recovered: string[] = [];
        for (let n = 2; recovered.length === 0 && n < 200; n++) {
          const claim = await deduper.claim(delivery([event(n)])).catch(() => undefined);
          if (claim !== undefined && claim.storeError === undefined) recovered = ids(claim.fresh) as string[];
          else await sleep(50);
        }
        expect(recovered).toHaveLength(1);
      });
    }
  }
});
