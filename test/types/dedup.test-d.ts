/** Type-level tests of the dedup API: a claim keeps the event type of the context it came from. */
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { describe, expectTypeOf, test } from 'vitest';
import { createRedisStore } from '../../src/redis.js';
import {
  createDeduper,
  createMemoryStore,
  type BuzzClaim,
  type BuzzEvent,
  type BuzzIdentifiedEvent,
  type BuzzMetaError,
  type BuzzScrapedContext,
  type BuzzSignedEvent,
  type BuzzVerifiedContext,
  type DedupStore,
  type Deduper,
} from '../../src/index.js';

describe('dedup types', () => {
  test('claims of a verified context list signed events', () => {
    const deduper: Deduper = createDeduper();
    const verified = {} as BuzzVerifiedContext;
    expectTypeOf(deduper.claim(verified)).resolves.toHaveProperty('fresh').toEqualTypeOf<readonly BuzzSignedEvent[]>();
    const scraped = {} as BuzzScrapedContext;
    expectTypeOf(deduper.claim(scraped)).resolves.toHaveProperty('seen').toEqualTypeOf<readonly BuzzEvent[]>();
    expectTypeOf(deduper.claim(scraped))
      .resolves.toHaveProperty('carried')
      .toEqualTypeOf<readonly BuzzEvent[] | undefined>();
  });

  test('a claim reports store failures as a BuzzMetaError and settles with promises', () => {
    expectTypeOf<BuzzClaim<BuzzIdentifiedEvent>['storeError']>().toEqualTypeOf<BuzzMetaError | undefined>();
    expectTypeOf<BuzzClaim['commit']>().returns.toEqualTypeOf<Promise<void>>();
  });

  test('the memory store is a DedupStore, and options are checked', () => {
    expectTypeOf(createMemoryStore()).toExtend<DedupStore>();
    // @ts-expect-error: not a policy
    createDeduper({ onStoreError: 'fail-soft' });
    // @ts-expect-error: ms are numbers
    createDeduper({ ttlMs: '1h' });
  });
});

describe('buzz-meta/redis types', () => {
  test('takes redis and ioredis clients, cluster clients included', () => {
    const nodeRedis = createClient();
    const nodeCluster = createCluster({ rootNodes: [] });
    const io = new Redis();
    const ioCluster = new Cluster([]);
    expectTypeOf(createRedisStore({ client: nodeRedis })).toEqualTypeOf<DedupStore>();
    expectTypeOf(createRedisStore({ client: nodeCluster, prefix: 'app:' })).toEqualTypeOf<DedupStore>();
    expectTypeOf(createRedisStore({ client: io })).toEqualTypeOf<DedupStore>();
    expectTypeOf(createRedisStore({ client: ioCluster })).toEqualTypeOf<DedupStore>();
    // @ts-expect-error: a client is required
    createRedisStore({});
  });
});
