// docs/dedup.md, "Client wiring": node-redis against Redis Cluster. Run by test/dedup/redis-cluster.test.ts
// (the store contract, a frozen master under both policies); test/dedup/readme-dedup.test.ts keeps the doc equal.
// --- snippet ---
import { createCluster } from 'redis';
import { createDeduper, type StoreErrorPolicy } from '../src/index.js';
import { createRedisStore } from '../src/redis.js';

/** Redis Cluster through node-redis: every node's connection fails fast and is replaced when it hangs. */
export async function nodeRedisClusterDeduper(urls: readonly string[], onStoreError: StoreErrorPolicy = 'fail-open') {
  const cluster = createCluster({
    rootNodes: urls.map((url) => ({ url })),
    topologyRefreshOnReconnectionAttemptStrategy: 1_000, // find a promoted replica 1 s after a node goes (default 5 s)
    defaults: {
      disableOfflineQueue: true, // fail at once while a node is disconnected: onStoreError applies
      pingInterval: 1_000, // keeps idle connections busy, so socketTimeout only catches a hung one
      socket: {
        socketTimeout: 5_000, // drop a connection that answers nothing (frozen or vanished master)
        reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 500), // the default gives up after a timeout
      },
    },
  });
  cluster.on('error', (error: unknown) => process.stderr.write(`redis: ${String(error)}\n`)); // never stdout in ACP
  await cluster.connect();
  const deduper = createDeduper({ store: createRedisStore({ client: cluster }), onStoreError, callTimeoutMs: 1_000 });
  return { cluster, deduper };
}
