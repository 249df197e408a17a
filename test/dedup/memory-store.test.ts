import { describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/dedup/memory-store.js';
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
    expect(await claim(store, 1, 'b')).toEqual(['held']);
    await advance(1);
    expect(await claim(store, 1, 'b')).toEqual([true]);
    await commit(store, 1, 'b');
    await advance(TTL - 1);
    expect(await claim(store, 1, 'c')).toEqual(['handled']);
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
    expect(await claim(store, 5, 'x')).toEqual(['handled']);
    expect(await claim(store, 3, 'x')).toEqual(['handled']);
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
    ).toEqual([true, 'handled', 'handled']);
  });

  test('bounds leases too', async () => {
    const { store } = manual(2);
    for (let n = 1; n <= 4; n++) await claim(store, n, 'held');
    expect(store.size).toBe(2);
    expect(await claim(store, 4, 'x')).toEqual(['held']);
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
    // 3000 settled positions were written behind the held one (test/dedup/write-order.test.ts: the
    // order compacts itself); the held lease outlives all of them, and still evicts first.
    expect(await claim(store, 0, 'x')).toEqual(['held']);
    for (let n = 3001; n <= 3009; n++) await claim(store, n, 'full');
    expect(store.size).toBe(10);
    expect(await claim(store, 0, 'x')).toEqual(['held']);
    await claim(store, 3010, 'full');
    expect(await claim(store, 0, 'x')).toEqual([true]);
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
    // Counted marks: the long one plus the five keys' latest (expired ones count until looked up);
    // the order of 3001 positions was compacted on the way (test/dedup/write-order.test.ts).
    expect(await claim(store, 0, 'x')).toEqual(['handled']);
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
    ).toEqual([true, 'handled', true, 'handled', 'handled']);
  });

  test('counts leases and marks across channels, settled ones out', async () => {
    const { store } = manual();
    expect(store.size).toBe(0);
    const ids = [1, 2, 3].map(eventId);
    await store.claim({ scope: CHANNEL, ids, token: 'a', leaseMs: LEASE });
    expect(store.size).toBe(3);
    await store.commit({ scope: CHANNEL, ids, token: 'a', ttlMs: TTL });
    expect(store.size).toBe(3);
    await store.claim({ scope: OTHER_CHANNEL, ids: [eventId(4)], token: 'b', leaseMs: LEASE });
    expect(store.size).toBe(4);
    await store.release({ scope: OTHER_CHANNEL, ids: [eventId(4)], token: 'b' });
    expect(store.size).toBe(3);
    expect(await store.claim({ scope: OTHER_CHANNEL, ids: [eventId(4)], token: 'c', leaseMs: LEASE })).toEqual([true]);
  });

  test('keeps exact write order through the growth of the write order (marks)', async () => {
    const { store } = manual(150);
    for (let n = 1; n <= 400; n++) {
      await claim(store, n, `t${String(n)}`);
      await commit(store, n, `t${String(n)}`);
    }
    expect(store.size).toBe(150);
    const all = Array.from({ length: 400 }, (_, k) => eventId(k + 1));
    const answer = await store.claim({ scope: CHANNEL, ids: all, token: 'x', leaseMs: LEASE });
    expect(answer).toEqual(all.map((_, k) => k + 1 <= 250 || 'handled'));
  });

  test('keeps exact write order through the growth of the write order (leases)', async () => {
    const { store } = manual(150);
    for (let n = 1; n <= 400; n++) await claim(store, n, `t${String(n)}`);
    expect(store.size).toBe(150);
    // Refused claims write nothing, so the newest 150 are checked first, then one older key.
    const newest = Array.from({ length: 150 }, (_, k) => eventId(251 + k));
    expect(await store.claim({ scope: CHANNEL, ids: newest, token: 'x', leaseMs: LEASE })).toEqual(
      newest.map(() => 'held'),
    );
    expect(await claim(store, 250, 'x')).toEqual([true]);
  });

  // The first evictions, right after the write order has grown past its first slots: an order that
  // lost its oldest items while growing would evict a newer key first.
  test('evicts the oldest first right after the write order first grows (marks)', async () => {
    const { store } = manual(100);
    for (let n = 1; n <= 102; n++) {
      await claim(store, n, `t${String(n)}`);
      await commit(store, n, `t${String(n)}`);
    }
    const all = Array.from({ length: 102 }, (_, k) => eventId(k + 1));
    const answer = await store.claim({ scope: CHANNEL, ids: all, token: 'x', leaseMs: LEASE });
    expect(answer).toEqual(all.map((_, k) => k + 1 <= 2 || 'handled'));
  });

  test('evicts the oldest first right after the write order first grows (leases)', async () => {
    const { store } = manual(100);
    for (let n = 1; n <= 102; n++) await claim(store, n, `t${String(n)}`);
    // Refused claims write nothing: the 100 held keys are asked first, then the two evicted ones.
    const held = Array.from({ length: 100 }, (_, k) => eventId(k + 3));
    expect(await store.claim({ scope: CHANNEL, ids: held, token: 'x', leaseMs: LEASE })).toEqual(
      held.map(() => 'held'),
    );
    expect(await store.claim({ scope: CHANNEL, ids: [eventId(1), eventId(2)], token: 'x', leaseMs: LEASE })).toEqual([
      true,
      true,
    ]);
  });

  test('maxEntries 1 keeps exactly the last key', async () => {
    const { store } = manual(1);
    await claim(store, 1, 'a');
    await commit(store, 1, 'a');
    await claim(store, 2, 'b');
    await commit(store, 2, 'b');
    expect(store.size).toBe(1);
    expect(await store.claim({ scope: CHANNEL, ids: [eventId(2), eventId(1)], token: 'c', leaseMs: LEASE })).toEqual([
      'handled',
      true,
    ]);
  });

  test('a commit marks a key whose foreign lease lapsed exactly now', async () => {
    const { store, advance } = manual();
    await claim(store, 1, 'first');
    await advance(LEASE);
    await commit(store, 1, 'late');
    expect(await claim(store, 1, 'x')).toEqual(['handled']);
    await advance(TTL);
    expect(await claim(store, 1, 'x')).toEqual([true]);
  });

  test('release in a channel it never saw changes nothing', async () => {
    const { store } = manual();
    await claim(store, 1, 'a');
    await store.release({ scope: OTHER_CHANNEL, ids: [eventId(1)], token: 'a' });
    expect(store.size).toBe(1);
    expect(await claim(store, 1, 'x')).toEqual(['held']);
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
    expect(await store.claim({ scope: CHANNEL, ids: [eventId(1)], token: 'b', leaseMs: 60_000 })).toEqual(['held']);
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
