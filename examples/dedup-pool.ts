// docs/dedup.md's pool example under Redis, type-checked (test/dedup/readme-dedup.test.ts keeps them equal).
// In your project, import from 'buzz-meta' and 'buzz-meta/redis'; inside this repository the source is imported.
// --- snippet ---
import { createClient } from 'redis';
import { createDeduper } from '../src/index.js';
import { createRedisStore } from '../src/redis.js';

// disableOfflineQueue: calls fail at once while Redis is down, so onStoreError applies
const client = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1', disableOfflineQueue: true });
client.on('error', (error: unknown) => process.stderr.write(`redis: ${String(error)}\n`)); // never stdout in ACP
await client.connect();
// Every process of the pool: one memory of what was handled, one round trip per claim.
export const deduper = createDeduper({ store: createRedisStore({ client }), leaseMs: 10 * 60_000 });
