import { describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/dedup/memory-store.js';
import { thrownBuzzError } from '../support/thrown.js';
import { CHANNEL, eventId } from './fixtures.js';
import { describeStoreContract } from './store-contract.js';

const LEASE = 1_000;
const TTL = 60_000;

/** A memory store on a clock the test moves. */
function manual(maxEntries?: number) {
  let now = 1_000_000;
  const store = createMemoryStore({ now: () => now, ...(maxEntries === undefined ? {} : { maxEntries }) });
  return {
    store,
    advance: (ms: number): Promise<void> => {
      now += ms;
      return Promise.resolve();
    },
  };
}

describeStoreContract('memory', { leaseMs: LEASE, ttlMs: TTL, marginMs: 1 }, () => manual());

describe('createMemoryStore', () => {
  const claim = (store: ReturnType<typeof manual>['store'], n: number, token: string) =>
    store.claim({ scope: CHANNEL, ids: [eventId(n)], token, leaseMs: LEASE });
  const commit = (store: ReturnType<typeof manual>['store'], n: number, token: string) =>
    store.commit({ scope: CHANNEL, ids: [eventId(n)], token, ttlMs: TTL });

  test('a lease lasts exactly leaseMs and a mark exactly ttlMs', async () => {
    const { store, advance } = manual();
    await claim(store, 1, 'a');
    await advance(LEASE - 1);
    expect(await claim(store, 1, 'b')).toEqual([false]);
    await advance(1);
    expect(await claim(store, 1, 'b')).toEqual([true]);
    await commit(store, 1, 'b');
    await advance(TTL - 1);
    expect(await claim(store, 1, 'c')).toEqual([false]);
    await advance(1);
    expect(await claim(store, 1, 'c')).toEqual([true]);
  });

  test('stays within maxEntries, forgetting the oldest handled marks first', async () => {
    const { store } = manual(3);
    for (let n = 1; n <= 5; n++) {
      await claim(store, n, `t${String(n)}`);
      await commit(store, n, `t${String(n)}`);
    }
    expect(store.size).toBe(3);
    expect(await claim(store, 5, 'x')).toEqual([false]);
    expect(await claim(store, 3, 'x')).toEqual([false]);
    expect(await claim(store, 2, 'x')).toEqual([true]);
    expect(await claim(store, 1, 'x')).toEqual([true]);
  });

  test('bounds leases too', async () => {
    const { store } = manual(2);
    for (let n = 1; n <= 4; n++) await claim(store, n, 'held');
    expect(store.size).toBe(2);
    expect(await claim(store, 4, 'x')).toEqual([false]);
    expect(await claim(store, 1, 'x')).toEqual([true]);
  });

  test('sweeps expired entries as it writes, so an idle past does not stay in memory', async () => {
    const { store, advance } = manual();
    for (let n = 1; n <= 4; n++) {
      await claim(store, n, 'a');
      await commit(store, n, 'a');
    }
    expect(store.size).toBe(4);
    await advance(TTL);
    // Each write sweeps up to two expired entries from the old end of the map it writes.
    await claim(store, 10, 'b');
    await commit(store, 10, 'b');
    expect(store.size).toBe(3);
    await claim(store, 11, 'b');
    await commit(store, 11, 'b');
    expect(store.size).toBe(2);
  });

  test('a lease expiring unclaimed is swept on later claims', async () => {
    const { store, advance } = manual();
    await claim(store, 1, 'a');
    await claim(store, 2, 'a');
    await claim(store, 3, 'a');
    await advance(LEASE);
    await claim(store, 4, 'b');
    expect(store.size).toBe(2);
  });

  test('uses Date.now by default', async () => {
    const store = createMemoryStore();
    expect(await store.claim({ scope: CHANNEL, ids: [eventId(1)], token: 'a', leaseMs: 60_000 })).toEqual([true]);
    expect(await store.claim({ scope: CHANNEL, ids: [eventId(1)], token: 'b', leaseMs: 60_000 })).toEqual([false]);
  });

  test.each([0, -1, 1.5, Number.NaN, 2 ** 53])('refuses maxEntries %s', (maxEntries) => {
    const error = thrownBuzzError(() => createMemoryStore({ maxEntries }));
    expect([error.code, error.path, error.message]).toEqual([
      'invalid_option',
      '/maxEntries',
      '/maxEntries: maxEntries must be a positive safe integer.',
    ]);
  });
});
