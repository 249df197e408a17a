import { describe, expect, test } from 'vitest';
import { createMemoryStore, writeOrderLengthsOf } from '../../src/dedup/memory-store.js';
import { thrownBuzzError } from '../support/thrown.js';
import { CHANNEL, OTHER_CHANNEL, eventId } from './fixtures.js';
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

  test('evicts in write order through thousands of writes', async () => {
    const { store } = manual(5);
    for (let n = 1; n <= 2100; n++) {
      await claim(store, n, 'a');
      await commit(store, n, 'a');
    }
    expect(store.size).toBe(5);
    expect(
      await store.claim({ scope: CHANNEL, ids: [2095, 2096, 2100].map(eventId), token: 'x', leaseMs: LEASE }),
    ).toEqual([true, false, false]);
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
    for (let n = 1; n <= 10; n++) {
      await claim(store, n, 'a');
      await commit(store, n, 'a');
    }
    expect(store.size).toBe(10);
    await advance(TTL);
    // Each write sweeps up to four expired entries from the old end of what it writes to.
    await claim(store, 20, 'b');
    await commit(store, 20, 'b');
    expect(store.size).toBe(7);
    await claim(store, 21, 'b');
    await commit(store, 21, 'b');
    expect(store.size).toBe(4);
    await claim(store, 22, 'b');
    await commit(store, 22, 'b');
    expect(store.size).toBe(3);
  });

  test('a lease expiring unclaimed is swept on later claims', async () => {
    const { store, advance } = manual();
    for (let n = 1; n <= 6; n++) await claim(store, n, 'a');
    await advance(LEASE);
    await claim(store, 10, 'b');
    expect(store.size).toBe(3);
    await claim(store, 11, 'b');
    expect(store.size).toBe(2);
  });

  test('settled leases do not pile up in the write order behind a long-held one', async () => {
    const { store } = manual(10);
    await claim(store, 0, 'long');
    for (let n = 1; n <= 3000; n++) {
      await claim(store, n, `t${String(n)}`);
      await store.release({ scope: CHANNEL, ids: [eventId(n)], token: `t${String(n)}` });
    }
    expect(store.size).toBe(1);
    // 3000 settled positions were written behind the held one; the order keeps at most 2 × live + 1024.
    expect(writeOrderLengthsOf(store)?.leases).toBeLessThanOrEqual(2 * 1 + 1024);
    expect(writeOrderLengthsOf(store)?.leases).toBeGreaterThan(0);
    expect(await claim(store, 0, 'x')).toEqual([false]);
  });

  test('marks written again after expiring do not pile up behind a long-lived one', async () => {
    const { store, advance } = manual(10);
    const mark = (n: number, token: string, ttlMs: number) =>
      store.commit({ scope: CHANNEL, ids: [eventId(n)], token, ttlMs });
    await claim(store, 0, 'long');
    await mark(0, 'long', 1_000_000_000);
    for (let k = 1; k <= 3000; k++) {
      // The same five keys again and again: each one's expired mark is dropped when it is claimed.
      expect(await claim(store, 1 + (k % 5), `t${String(k)}`)).toEqual([true]);
      await mark(1 + (k % 5), `t${String(k)}`, 10);
      await advance(10);
    }
    expect(store.size).toBe(6);
    const lengths = writeOrderLengthsOf(store);
    expect(lengths?.marks).toBeLessThanOrEqual(2 * 6 + 1024);
    expect(lengths?.marks).toBeGreaterThanOrEqual(6);
    expect(await claim(store, 0, 'x')).toEqual([false]);
    expect(await claim(store, 1, 'x')).toEqual([true]);
  });

  test('eviction skips a position whose key was marked again later, and evicts the next oldest', async () => {
    const { store, advance } = manual(3);
    const mark = (n: number, ttlMs: number) => store.commit({ scope: CHANNEL, ids: [eventId(n)], token: 'm', ttlMs });
    await mark(1, TTL); // W: long-lived, first in write order
    await mark(2, 10); // X: short-lived
    await advance(10);
    await mark(3, TTL); // Y
    expect(await claim(store, 2, 'x')).toEqual([true]); // X's expired mark is dropped; its position stays
    await commit(store, 2, 'x'); // X marked again, after Y: order W, X(old), Y, X
    await mark(4, TTL); // 4 marks > 3: W goes
    await mark(5, TTL); // again: X(old) is skipped, so Y goes, not X
    expect(store.size).toBe(3);
    expect(
      await store.claim({ scope: CHANNEL, ids: [1, 2, 3, 4, 5].map(eventId), token: 'y', leaseMs: LEASE }),
    ).toEqual([true, false, true, false, false]);
  });

  test('reports write-order lengths only for memory stores', () => {
    const { store } = manual();
    expect(writeOrderLengthsOf(store)).toEqual({ leases: 0, marks: 0 });
    expect(writeOrderLengthsOf({ ...store })).toBeUndefined();
  });

  test('channels that empty are forgotten, and come back fresh', async () => {
    const { store, advance } = manual();
    await store.claim({ scope: OTHER_CHANNEL, ids: [eventId(1)], token: 'a', leaseMs: LEASE });
    await store.release({ scope: OTHER_CHANNEL, ids: [eventId(1)], token: 'a' });
    expect(store.size).toBe(0);
    expect(await store.claim({ scope: OTHER_CHANNEL, ids: [eventId(1)], token: 'b', leaseMs: LEASE })).toEqual([true]);
    await advance(LEASE);
    expect(await store.claim({ scope: OTHER_CHANNEL, ids: [eventId(1)], token: 'c', leaseMs: LEASE })).toEqual([true]);
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
