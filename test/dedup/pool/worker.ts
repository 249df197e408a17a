/**
 * One agent of a simulated pool, run as its own process by test/dedup/pool.test.ts: it works
 * through its deliveries with a deduper over the shared Redis, and prints one JSON line per
 * commit (`{"committed": ["<channel>/<event id>", …]}`), then `{"done": true}`. Every `cancelEvery`-th turn is
 * cancelled: it releases, and its events come back merged into the next delivery as cancelled
 * events (a Steer merge), or alone when nothing follows. With `hang`, it claims its first delivery,
 * prints `{"claimed": [keys]}` and then never settles (the test kills it mid-turn).
 *
 * @packageDocumentation
 */
import { createClient } from 'redis';
import { createDeduper } from '../../../src/dedup/deduper.js';
import { createRedisStore } from '../../../src/dedup/redis-store.js';
import { delivery, event } from '../fixtures.js';

/** One delivery: event numbers (see fixtures `event(n)`) of one channel. */
export interface PoolDelivery {
  readonly channel: string;
  readonly events: readonly number[];
  readonly cancelled: readonly number[];
}

/** What the test passes as the single argument (JSON). */
export interface WorkerConfig {
  readonly url: string;
  readonly prefix: string;
  readonly leaseMs: number;
  readonly deliveries: readonly PoolDelivery[];
  readonly cancelEvery: number;
  readonly hang: boolean;
}

const config = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig;
const client = createClient({ url: config.url, disableOfflineQueue: true });
client.on('error', (error: unknown) => {
  process.stderr.write(`redis: ${String(error)}\n`);
});
await client.connect();
const deduper = createDeduper({
  store: createRedisStore({ client, prefix: config.prefix }),
  leaseMs: config.leaseMs,
  onStoreError: 'fail-closed',
});
const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value)}\n`);
};

const queue = [...config.deliveries];
let turn = 0;
while (queue.length > 0) {
  const next = queue.shift();
  if (next === undefined) break;
  const claim = await deduper.claim(
    delivery(
      next.events.map((n) => event(n)),
      next.cancelled.map((n) => event(n)),
      next.channel,
    ),
  );
  const handled = [...claim.fresh, ...(claim.carried ?? [])].map((e) => `${next.channel}/${e.id ?? ''}`);
  if (config.hang) {
    print({ claimed: handled });
    await new Promise(() => {
      // Mid-turn forever: the test kills this process.
    });
  }
  // The turn's work: yield, so the other workers' claims interleave with this one.
  await new Promise((resolve) => setTimeout(resolve, turn % 3));
  turn += 1;
  if (handled.length > 0 && turn % config.cancelEvery === 0) {
    await claim.release();
    const after = queue.findIndex((d) => d.channel === next.channel);
    const merged = [...next.events, ...next.cancelled];
    const following = after === -1 ? undefined : queue[after];
    if (following === undefined) queue.push({ channel: next.channel, events: merged, cancelled: [] });
    else queue[after] = { channel: next.channel, events: following.events, cancelled: merged };
    continue;
  }
  await claim.commit();
  print({ committed: handled, carried: claim.carried?.length ?? 0 });
}
print({ done: true });
client.destroy();
