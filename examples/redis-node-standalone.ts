// docs/dedup.md, "Client wiring": node-redis against one Redis. Run by test/dedup/redis-faults.test.ts
// (a frozen server under both policies); test/dedup/readme-dedup.test.ts keeps the doc's block equal to the snippet.
// --- snippet ---
import { createClient } from 'redis';
import { createDeduper, type StoreErrorPolicy } from '../src/index.js';
import { createRedisStore } from '../src/redis.js';

/** One Redis through node-redis: calls fail fast while it is down, a hung connection is replaced. */
export async function nodeRedisDeduper(url: string, onStoreError: StoreErrorPolicy = 'fail-open') {
  const client = createClient({
    url,
    disableOfflineQueue: true, // fail at once while disconnected: onStoreError applies
    pingInterval: 1_000, // keeps an idle connection busy, so socketTimeout only catches a hung one
    socket: {
      socketTimeout: 5_000, // drop a connection that answers nothing (frozen or vanished server)
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000), // the default gives up after a timeout
    },
  });
  client.on('error', (error: unknown) => process.stderr.write(`redis: ${String(error)}\n`)); // never stdout in ACP
  await client.connect();
  // callTimeoutMs: the deduper's own bound on every call, whatever the client does.
  const deduper = createDeduper({ store: createRedisStore({ client }), onStoreError, callTimeoutMs: 1_000 });
  return { client, deduper };
}
