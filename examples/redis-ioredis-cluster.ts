// docs/dedup.md, "Client wiring": ioredis against Redis Cluster. Run by test/dedup/redis-cluster.test.ts
// (the store contract, a frozen master under both policies); test/dedup/readme-dedup.test.ts keeps the doc equal.
// --- snippet ---
import { once } from 'node:events';
import { Cluster } from 'ioredis';
import { createDeduper, type StoreErrorPolicy } from '../src/index.js';
import { createRedisStore } from '../src/redis.js';

/** Redis Cluster through ioredis: no offline queue, a timeout per command, used only once ready. */
export async function ioredisClusterDeduper(
  nodes: readonly { host: string; port: number }[],
  onStoreError: StoreErrorPolicy = 'fail-open',
) {
  const cluster = new Cluster([...nodes], {
    enableOfflineQueue: false, // fail at once while the cluster is not ready: onStoreError applies
    redisOptions: { commandTimeout: 1_000 }, // per node: a command without an answer fails
  });
  cluster.on('error', (error: unknown) => process.stderr.write(`redis: ${String(error)}\n`)); // never stdout in ACP
  // Before 'ready' the slot map is unknown and every call fails: wait for it.
  await once(cluster, 'ready');
  const deduper = createDeduper({ store: createRedisStore({ client: cluster }), onStoreError, callTimeoutMs: 1_000 });
  return { cluster, deduper };
}
