/**
 * The deduper under faults and in shared stores: handled vs held elsewhere, namespaces and channel
 * ids that become hash tags, the per-call deadline under both policies, a timed-out claim that
 * lands late, and commits and releases retried before they count as failed.
 */
import { describe, expect, test } from 'vitest';
import { StoreDeadlineError } from '../../src/dedup/deadline.js';
import { createDeduper } from '../../src/dedup/deduper.js';
import { createMemoryStore } from '../../src/dedup/memory-store.js';
import type { DedupClaimRequest, DedupStore } from '../../src/dedup/types.js';
import { CHANNEL, delivery, event, eventId, ids } from './fixtures.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A memory store whose calls can be made to hang, fail, or land late. */
function faultyStore() {
  const inner = createMemoryStore();
  const calls: string[] = [];
  const faults = { hangClaims: false, failCommits: 0, failReleases: 0 };
  /** Claims that hung: each lands (runs on the inner store) when `land()` is called. */
  const hung: (() => void)[] = [];
  const store: DedupStore = {
    claim: (request: DedupClaimRequest) => {
      calls.push('claim');
      if (!faults.hangClaims) return inner.claim(request);
      return new Promise((resolve) => {
        hung.push(() => {
          void inner.claim(request).then(resolve);
        });
      });
    },
    commit: async (request) => {
      calls.push('commit');
      if (faults.failCommits > 0) {
        faults.failCommits--;
        throw new Error('ECONNRESET');
      }
      return inner.commit(request);
    },
    release: async (request) => {
      calls.push('release');
      if (faults.failReleases > 0) {
        faults.failReleases--;
        throw new Error('ECONNRESET');
      }
      return inner.release(request);
    },
  };
  return {
    store,
    inner,
    calls,
    faults,
    land: () => {
      for (const landNow of hung.splice(0)) landNow();
    },
  };
}

describe('handled or held elsewhere', () => {
  test('seen splits into handled (committed) and held (another live claim), in order; fresh repeats are neither', async () => {
    const deduper = createDeduper();
    await (await deduper.claim(delivery([event(1)]))).commit();
    const holder = await deduper.claim(delivery([event(2)]));
    const claim = await deduper.claim(delivery([event(3), event(1), event(2), event(3), event(1), event(2)]));
    expect({
      fresh: ids(claim.fresh),
      seen: ids(claim.seen),
      handled: ids(claim.handled),
      held: ids(claim.held),
    }).toEqual({
      fresh: [eventId(3)],
      seen: [eventId(1), eventId(2), eventId(3), eventId(1), eventId(2)],
      handled: [eventId(1), eventId(1)],
      held: [eventId(2), eventId(2)],
    });
    await holder.release();
    expect(ids((await deduper.claim(delivery([event(2)]))).fresh)).toEqual([eventId(2)]);
  });

  test('cancelled events held by another claim are heldCancelled, not carried; handled ones neither', async () => {
    const deduper = createDeduper();
    await (await deduper.claim(delivery([event(1)]))).commit();
    await deduper.claim(delivery([event(2)]));
    const merged = await deduper.claim(delivery([event(4)], [event(1), event(2), event(3), event(4)]));
    expect([ids(merged.carried), ids(merged.heldCancelled), ids(merged.held)]).toEqual([
      [eventId(3)],
      [eventId(2)],
      [],
    ]);
  });

  test('a store answering only booleans (0.2 stores): false counts as handled', async () => {
    const inner = createMemoryStore();
    const legacy: DedupStore = {
      claim: async (request) => (await inner.claim(request)).map((answer) => answer === true),
      commit: (request) => inner.commit(request),
      release: (request) => inner.release(request),
    };
    const deduper = createDeduper({ store: legacy });
    await deduper.claim(delivery([event(1)]));
    const again = await deduper.claim(delivery([event(1)]));
    expect([ids(again.handled), ids(again.held)]).toEqual([[eventId(1)], []]);
  });
});

describe('namespaces and hash tags', () => {
  test('the same event in two namespaces is two keys; without one it is a third', async () => {
    const store = createMemoryStore();
    const deduper = createDeduper({ store });
    const fresh = async (namespace?: string) =>
      ids((await deduper.claim(delivery([event(1)]), namespace === undefined ? {} : { namespace })).fresh);
    expect([
      await fresh('a'.repeat(64)),
      await fresh('b'.repeat(64)),
      await fresh(),
      await fresh('a'.repeat(64)),
    ]).toEqual([[eventId(1)], [eventId(1)], [eventId(1)], []]);
  });

  test('the store sees <namespace>/<channel id> as the scope; hashed keys still use the channel id alone', async () => {
    const scopes: string[] = [];
    const inner = createMemoryStore();
    const store: DedupStore = {
      claim: (request) => (scopes.push(request.scope), inner.claim(request)),
      commit: (request) => inner.commit(request),
      release: (request) => inner.release(request),
    };
    await createDeduper({ store }).claim(delivery([event(1)]), { namespace: 'agent1' });
    expect(scopes).toEqual([`agent1/${CHANNEL}`]);
  });

  test.each([[''], ['}abc'], ['a{b'], ['ab}']])(
    'refuses channel id %j before it becomes a hash tag',
    async (channelId) => {
      const deduper = createDeduper({ onStoreError: 'fail-open' });
      await expect(deduper.claim(delivery([event(1)], [], channelId))).rejects.toMatchObject({
        code: 'invalid_params',
        path: '/channelId',
      });
    },
  );

  test.each([[''], ['a/b'], ['{x}'], ['x}']])('refuses namespace %j', async (namespace) => {
    await expect(createDeduper().claim(delivery([event(1)]), { namespace })).rejects.toMatchObject({
      code: 'invalid_option',
      path: '/namespace',
    });
  });
});

describe('per-call deadline', () => {
  test('fail-open: a claim that hangs resolves within the deadline with every event fresh', async () => {
    const { store, faults } = faultyStore();
    faults.hangClaims = true;
    const deduper = createDeduper({ store, callTimeoutMs: 50 });
    const started = performance.now();
    const claim = await deduper.claim(delivery([event(1)]));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect([ids(claim.fresh), claim.storeError?.code, claim.storeError?.cause instanceof StoreDeadlineError]).toEqual([
      [eventId(1)],
      'dedup_store_unavailable',
      true,
    ]);
  });

  test('fail-closed: a claim that hangs rejects within the deadline, and the store is used again after', async () => {
    const { store, faults } = faultyStore();
    faults.hangClaims = true;
    const deduper = createDeduper({ store, callTimeoutMs: 50, onStoreError: 'fail-closed' });
    await expect(deduper.claim(delivery([event(1)]))).rejects.toMatchObject({ code: 'dedup_store_unavailable' });
    faults.hangClaims = false;
    expect(ids((await deduper.claim(delivery([event(2)]))).fresh)).toEqual([eventId(2)]);
  });

  test('fail-closed: a timed-out claim that lands late leaves no lease behind', async () => {
    const { store, inner, faults, land } = faultyStore();
    faults.hangClaims = true;
    const deduper = createDeduper({ store, callTimeoutMs: 30, onStoreError: 'fail-closed' });
    await expect(deduper.claim(delivery([event(1)]))).rejects.toMatchObject({ code: 'dedup_store_unavailable' });
    faults.hangClaims = false;
    // The server runs the claim only now, after the deduper gave up on it.
    land();
    await sleep(20);
    expect(await inner.claim({ scope: CHANNEL, ids: [eventId(1)], token: 'probe', leaseMs: 1000 })).toEqual([true]);
  });

  test('fail-open: a timed-out claim landing after its turn released is released again', async () => {
    const { store, inner, faults, land } = faultyStore();
    faults.hangClaims = true;
    const deduper = createDeduper({ store, callTimeoutMs: 30 });
    const claim = await deduper.claim(delivery([event(1)]));
    await claim.release();
    land();
    await sleep(20);
    expect(await inner.claim({ scope: CHANNEL, ids: [eventId(1)], token: 'probe', leaseMs: 1000 })).toEqual([true]);
  });

  test('fail-open: a timed-out claim landing after its turn committed leaves the event handled', async () => {
    const { store, inner, faults, land } = faultyStore();
    faults.hangClaims = true;
    const deduper = createDeduper({ store, callTimeoutMs: 30 });
    const claim = await deduper.claim(delivery([event(1)]));
    await claim.commit();
    land();
    await sleep(20);
    expect(await inner.claim({ scope: CHANNEL, ids: [eventId(1)], token: 'probe', leaseMs: 1000 })).toEqual([
      'handled',
    ]);
  });

  test('refuses a callTimeoutMs or settleAttempts that is not a positive integer', () => {
    expect(() => createDeduper({ callTimeoutMs: 0 })).toThrow(/callTimeoutMs must be a positive integer number of ms/);
    expect(() => createDeduper({ settleAttempts: 1.5 })).toThrow(/settleAttempts must be a positive integer\./);
  });
});

describe('settles are retried', () => {
  test('the clean-up after a failed fail-closed claim retries without keeping the process alive', async () => {
    const calls: string[] = [];
    const refused = () => Promise.reject(new Error('ECONNREFUSED'));
    const store: DedupStore = {
      claim: () => (calls.push('claim'), refused()),
      commit: refused,
      release: () => (calls.push('release'), refused()),
    };
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    const before = timers();
    const deduper = createDeduper({ store, onStoreError: 'fail-closed' });
    await expect(deduper.claim(delivery([event(1)]))).rejects.toMatchObject({ code: 'dedup_store_unavailable' });
    await new Promise((resolve) => setImmediate(resolve));
    // The first release failed; the clean-up now waits to try again, on a timer that holds nothing.
    expect([calls, timers()]).toEqual([['claim', 'release'], before]);
    await sleep(80);
    expect(calls).toEqual(['claim', 'release', 'release']);
  });

  test('a commit that fails twice and then lands resolves and reports nothing', async () => {
    const { store, calls, faults, inner } = faultyStore();
    const reported: string[] = [];
    const deduper = createDeduper({ store, onStoreError: 'fail-closed', onError: (e) => reported.push(e.code) });
    const claim = await deduper.claim(delivery([event(1)]));
    faults.failCommits = 2;
    await claim.commit();
    expect([calls, reported]).toEqual([['claim', 'commit', 'commit', 'commit'], []]);
    expect(await inner.claim({ scope: CHANNEL, ids: [eventId(1)], token: 'probe', leaseMs: 1000 })).toEqual([
      'handled',
    ]);
  });

  test('a release that fails settleAttempts times counts as failed: fail-open resolves and reports once', async () => {
    const { store, calls, faults } = faultyStore();
    const reported: string[] = [];
    const deduper = createDeduper({ store, settleAttempts: 2, onError: (e) => reported.push(e.message) });
    const claim = await deduper.claim(delivery([event(1)]));
    faults.failReleases = 5;
    await claim.release();
    expect([calls, reported]).toEqual([['claim', 'release', 'release'], ['the dedup store failed to release']]);
  });

  test('a commit that hangs counts as a failed attempt and is tried again', async () => {
    const inner = createMemoryStore();
    let commits = 0;
    const store: DedupStore = {
      claim: (request) => inner.claim(request),
      commit: (request) => (++commits === 1 ? new Promise<void>(() => undefined) : inner.commit(request)),
      release: (request) => inner.release(request),
    };
    const deduper = createDeduper({ store, callTimeoutMs: 30, onStoreError: 'fail-closed' });
    await (await deduper.claim(delivery([event(1)]))).commit();
    expect(commits).toBe(2);
    expect(await inner.claim({ scope: CHANNEL, ids: [eventId(1)], token: 'probe', leaseMs: 1000 })).toEqual([
      'handled',
    ]);
  });
});
