import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { BuzzEvent } from '../../src/context.js';
import { createDeduper } from '../../src/dedup/deduper.js';
import { dedupKeyOf } from '../../src/dedup/event-key.js';
import { createMemoryStore } from '../../src/dedup/memory-store.js';
import type { DedupStore } from '../../src/dedup/types.js';
import { BuzzMetaError } from '../../src/errors.js';
import { parseBuzzContext } from '../../src/read/read.js';
import { thrownBuzzError } from '../support/thrown.js';
import { CHANNEL, OTHER_CHANNEL, SENDER, delivery, event, eventId, ids, scraped } from './fixtures.js';

const LEASE = 1_000;

/** A deduper over a memory store on a clock the test moves. */
function setup(extra: Parameters<typeof createDeduper>[0] = {}) {
  let now = 5_000_000;
  const store = createMemoryStore({ now: () => now });
  return {
    store,
    deduper: createDeduper({ store, leaseMs: LEASE, ttlMs: 60_000, ...extra }),
    advance: (ms: number): void => {
      now += ms;
    },
  };
}

/** A real store that fails while `down` is set (as a store does when its server is gone). */
function switchable(inner: DedupStore) {
  const calls: string[] = [];
  const state = { down: false, calls };
  const gate = (name: string): void => {
    calls.push(name);
    if (state.down) throw new Error(`ECONNREFUSED (${name})`);
  };
  const store: DedupStore = {
    claim: async (r) => (gate('claim'), inner.claim(r)),
    commit: async (r) => (gate('commit'), inner.commit(r)),
    release: async (r) => (gate('release'), inner.release(r)),
  };
  return { store, state };
}

describe('createDeduper: claim, commit, release', () => {
  test('fresh and seen partition the events, in order', async () => {
    const { deduper } = setup();
    await (await deduper.claim(delivery([event(2), event(4)]))).commit();
    const claim = await deduper.claim(delivery([event(1), event(2), event(3), event(4), event(5)]));
    expect(ids(claim.fresh)).toEqual([eventId(1), eventId(3), eventId(5)]);
    expect(ids(claim.seen)).toEqual([eventId(2), eventId(4)]);
    expect(claim.carried).toEqual([]);
    expect('storeError' in claim).toBe(false);
  });

  test('fresh events keep their object identity (and type)', async () => {
    const { deduper } = setup();
    const events = [event(1)];
    const claim = await deduper.claim(delivery(events));
    expect(claim.fresh[0]).toBe(events[0]);
  });

  test('an in-flight claim makes a concurrent claim see the events', async () => {
    const { deduper } = setup();
    const first = await deduper.claim(delivery([event(1), event(2)]));
    const second = await deduper.claim(delivery([event(2), event(3)]));
    expect([ids(first.fresh), ids(second.fresh), ids(second.seen)]).toEqual([
      [eventId(1), eventId(2)],
      [eventId(3)],
      [eventId(2)],
    ]);
  });

  test('commit marks events handled: a redelivery sees all of them', async () => {
    const { deduper } = setup();
    await (await deduper.claim(delivery([event(1), event(2)]))).commit();
    const again = await deduper.claim(delivery([event(1), event(2)]));
    expect([ids(again.fresh), ids(again.seen)]).toEqual([[], [eventId(1), eventId(2)]]);
  });

  test('handled marks last ttlMs', async () => {
    const { deduper, advance } = setup();
    await (await deduper.claim(delivery([event(1)]))).commit();
    advance(59_999);
    expect(ids((await deduper.claim(delivery([event(1)]))).fresh)).toEqual([]);
    advance(1);
    expect(ids((await deduper.claim(delivery([event(1)]))).fresh)).toEqual([eventId(1)]);
  });

  test('release makes events claimable again at once', async () => {
    const { deduper } = setup();
    await (await deduper.claim(delivery([event(1)]))).release();
    expect(ids((await deduper.claim(delivery([event(1)]))).fresh)).toEqual([eventId(1)]);
  });

  test('an unsettled claim expires after leaseMs, and settling it late undoes nothing', async () => {
    const { deduper, advance } = setup();
    const crashed = await deduper.claim(delivery([event(1)]));
    advance(LEASE - 1);
    expect(ids((await deduper.claim(delivery([event(1)]))).fresh)).toEqual([]);
    advance(1);
    const retry = await deduper.claim(delivery([event(1)]));
    expect(ids(retry.fresh)).toEqual([eventId(1)]);
    await crashed.release();
    await crashed.commit();
    expect(ids((await deduper.claim(delivery([event(1)]))).seen)).toEqual([eventId(1)]);
    await retry.release();
    expect(ids((await deduper.claim(delivery([event(1)]))).fresh)).toEqual([eventId(1)]);
  });

  test('the first settle wins: release after commit, and commit after release, are no-ops', async () => {
    const { deduper } = setup();
    const committed = await deduper.claim(delivery([event(1)]));
    await committed.commit();
    await committed.release();
    await committed.commit();
    expect(ids((await deduper.claim(delivery([event(1)]))).seen)).toEqual([eventId(1)]);

    const released = await deduper.claim(delivery([event(2)]));
    await released.release();
    await released.commit();
    expect(ids((await deduper.claim(delivery([event(2)]))).fresh)).toEqual([eventId(2)]);
  });

  test('concurrent settles: only the first reaches the store', async () => {
    const { store, state } = switchable(createMemoryStore());
    const deduper = createDeduper({ store });
    const claim = await deduper.claim(delivery([event(1)]));
    await Promise.all([claim.commit(), claim.release(), claim.commit()]);
    expect(state.calls).toEqual(['claim', 'commit']);
  });

  test('a claim whose events were all seen never calls the store to settle', async () => {
    const { store, state } = switchable(createMemoryStore());
    const deduper = createDeduper({ store });
    await (await deduper.claim(delivery([event(1)]))).commit();
    const seen = await deduper.claim(delivery([event(1)]));
    await seen.commit();
    await seen.release();
    expect(state.calls).toEqual(['claim', 'commit', 'claim']);
  });

  test('a delivery without events never calls the store', async () => {
    const { store, state } = switchable(createMemoryStore());
    const claim = await createDeduper({ store }).claim(delivery([]));
    await claim.commit();
    expect([claim.fresh, claim.seen, state.calls]).toEqual([[], [], []]);
    expect('storeError' in claim).toBe(false);
  });

  test('the store gets each key once, in order, for small and large deliveries with repeats', async () => {
    for (const size of [4, 40]) {
      const requests: string[][] = [];
      const inner = createMemoryStore();
      const store: DedupStore = {
        claim: (r) => {
          requests.push([...r.ids]);
          return inner.claim(r);
        },
        commit: (r) => inner.commit(r),
        release: (r) => inner.release(r),
      };
      const deduper = createDeduper({ store });
      const events = Array.from({ length: size }, (_, k) => event(k + 1));
      // Every event twice in the delivery, and again among the cancelled ones, plus one cancelled of its own.
      const claim = await deduper.claim(delivery([...events, ...events], [...events, event(1000)]));
      const keys = events.map((e) => e.id);
      expect(requests).toEqual([[...keys, eventId(1000)]]);
      expect([ids(claim.fresh), ids(claim.seen), ids(claim.carried)]).toEqual([keys, keys, [eventId(1000)]]);
    }
  });

  test('fail-open: a repeated event is still fresh once and then seen', async () => {
    const { store, state } = switchable(createMemoryStore());
    const deduper = createDeduper({ store });
    state.down = true;
    const claim = await deduper.claim(delivery([event(1), event(2), event(1)]));
    expect([ids(claim.fresh), ids(claim.seen), claim.storeError?.code]).toEqual([
      [eventId(1), eventId(2)],
      [eventId(1)],
      'dedup_store_unavailable',
    ]);
  });

  test('two dedupers over one store never share a claim token', async () => {
    let now = 1_000_000;
    const store = createMemoryStore({ now: () => now });
    const first = createDeduper({ store, leaseMs: LEASE });
    const second = createDeduper({ store, leaseMs: LEASE });
    // Each deduper's first claim: the same counter, so only the per-deduper part tells them apart.
    const lapsed = await first.claim(delivery([event(1)]));
    now += LEASE;
    const current = await second.claim(delivery([event(1)]));
    expect(ids(current.fresh)).toEqual([eventId(1)]);
    await lapsed.release();
    expect(ids((await first.claim(delivery([event(1)]))).seen)).toEqual([eventId(1)]);
  });

  test('fail-closed: a second commit or release after a commit is a no-op, and nothing is reported', async () => {
    const reported: string[] = [];
    const { store, state } = switchable(createMemoryStore());
    const deduper = createDeduper({ store, onStoreError: 'fail-closed', onError: (e) => reported.push(e.message) });
    const claim = await deduper.claim(delivery([event(1)]));
    await claim.commit();
    await expect(claim.commit()).resolves.toBeUndefined();
    await expect(claim.release()).resolves.toBeUndefined();
    expect([state.calls, reported]).toEqual([['claim', 'commit'], []]);
  });

  test('the same event twice in one delivery is fresh once, then seen', async () => {
    const { deduper } = setup();
    const claim = await deduper.claim(delivery([event(1), event(2), event(1)]));
    expect([ids(claim.fresh), ids(claim.seen)]).toEqual([[eventId(1), eventId(2)], [eventId(1)]]);
  });

  test('channels are separate: the same id in another channel is another event', async () => {
    const { deduper } = setup();
    await (await deduper.claim(delivery([event(1)]))).commit();
    expect(ids((await deduper.claim(delivery([event(1)], [], OTHER_CHANNEL))).fresh)).toEqual([eventId(1)]);
  });

  test('every claim has its own token, even from two dedupers over one store', async () => {
    const store = createMemoryStore();
    const one = createDeduper({ store });
    const two = createDeduper({ store });
    const mine = await one.claim(delivery([event(1)]));
    const theirs = await two.claim(delivery([event(1)]));
    expect(ids(theirs.seen)).toEqual([eventId(1)]);
    await theirs.release();
    expect(ids((await two.claim(delivery([event(1)]))).seen)).toEqual([eventId(1)]);
    await mine.release();
    expect(ids((await two.claim(delivery([event(1)]))).fresh)).toEqual([eventId(1)]);
  });

  test('defaults: a memory store, a 5-minute lease', async () => {
    const deduper = createDeduper();
    const claim = await deduper.claim(delivery([event(1)]));
    expect(ids(claim.fresh)).toEqual([eventId(1)]);
    expect(ids((await deduper.claim(delivery([event(1)]))).seen)).toEqual([eventId(1)]);
  });
});

describe('Steer/Interrupt merges', () => {
  test('the cancelled turn releases; the merged turn carries its events and commits them with its own', async () => {
    const { deduper } = setup();
    const cancelledTurn = await deduper.claim(delivery([event(1), event(2)]));
    await cancelledTurn.release();
    const merged = await deduper.claim(delivery([event(3)], [event(1), event(2)]));
    expect([ids(merged.fresh), ids(merged.seen), ids(merged.carried)]).toEqual([
      [eventId(3)],
      [],
      [eventId(1), eventId(2)],
    ]);
    await merged.commit();
    const replay = await deduper.claim(delivery([event(1), event(2), event(3)]));
    expect(ids(replay.fresh)).toEqual([]);
  });

  test('cancelled events still held (the cancel not yet released) or handled are not carried', async () => {
    const { deduper } = setup();
    await (await deduper.claim(delivery([event(1)]))).commit();
    const stillHeld = await deduper.claim(delivery([event(2)]));
    const merged = await deduper.claim(delivery([event(3)], [event(1), event(2), event(4)]));
    expect(ids(merged.carried)).toEqual([eventId(4)]);
    await merged.release();
    await stillHeld.release();
    expect(ids((await deduper.claim(delivery([event(2), event(3), event(4)]))).fresh)).toEqual([
      eventId(2),
      eventId(3),
      eventId(4),
    ]);
  });

  test('an event both new and cancelled counts once, as new', async () => {
    const { deduper } = setup();
    const merged = await deduper.claim(delivery([event(1)], [event(1)]));
    expect([ids(merged.fresh), ids(merged.carried)]).toEqual([[eventId(1)], []]);
  });

  test('a failed merged turn releases the carried events too', async () => {
    const { deduper } = setup();
    const merged = await deduper.claim(delivery([event(3)], [event(1)]));
    await merged.release();
    expect(ids((await deduper.claim(delivery([event(1), event(3)]))).fresh)).toEqual([eventId(1), eventId(3)]);
  });
});

describe('keys', () => {
  const idless = (content: string | undefined, createdAt = 1_600_000_000): BuzzEvent => ({
    id: null,
    sender: SENDER,
    kind: null,
    createdAt,
    ...(content === undefined ? {} : { content }),
  });

  test('an event id is its own key', () => {
    expect(dedupKeyOf(CHANNEL, event(7))).toBe(eventId(7));
  });

  test('an id-less event is keyed by sha256 of channel, sender, createdAt and content, one per line', () => {
    const expected = createHash('sha256')
      .update(`${CHANNEL}\n${SENDER}\n1600000000\nline one\nline two ✓`, 'utf8')
      .digest('hex');
    expect(dedupKeyOf(CHANNEL, idless('line one\nline two ✓'))).toBe(`h:${expected}`);
    const empty = createHash('sha256').update(`${CHANNEL}\n${SENDER}\n1600000000\n`).digest('hex');
    expect(dedupKeyOf(CHANNEL, idless(undefined))).toBe(`h:${empty}`);
  });

  test('id-less events dedup by what identifies them', async () => {
    const { deduper } = setup();
    await (await deduper.claim(scraped([idless('hello')]))).commit();
    const again = await deduper.claim(scraped([idless('hello'), idless('hello', 1_600_000_001), idless('hello!')]));
    expect([again.fresh.length, again.seen.length]).toEqual([2, 1]);
    expect(again.seen[0]?.createdAt).toBe(1_600_000_000);
  });

  test('a verified and a scraped context with the same event id dedup against each other', async () => {
    const vectors = JSON.parse(readFileSync(new URL('../vectors/envelope-valid.json', import.meta.url), 'utf8')) as {
      cases: { params: unknown; options: { agentPubkey: string } }[];
    };
    const first = vectors.cases[0];
    if (first === undefined) throw new Error('no vector');
    const verified = parseBuzzContext(first.params, { agentPubkey: first.options.agentPubkey });
    expect(verified.trust).toBe('verified');
    const { deduper } = setup();
    await (await deduper.claim(verified)).commit();
    const text = scraped(
      verified.events.map((e) => ({ id: e.id, sender: e.sender, kind: e.kind, createdAt: e.createdAt })),
      verified.channelId,
    );
    const claim = await deduper.claim(text);
    expect([claim.fresh.length, ids(claim.seen)]).toEqual([0, ids(verified.events)]);
  });
});

describe('failure policy', () => {
  test('fail-open (the default): a failed claim treats every event as fresh and says why', async () => {
    const reported: BuzzMetaError[] = [];
    const { store, state } = switchable(createMemoryStore());
    const deduper = createDeduper({ store, onError: (e) => reported.push(e) });
    await (await deduper.claim(delivery([event(1)]))).commit();
    state.down = true;
    const claim = await deduper.claim(delivery([event(1), event(2)]));
    expect([ids(claim.fresh), claim.seen]).toEqual([[eventId(1), eventId(2)], []]);
    expect(claim.storeError).toBeInstanceOf(BuzzMetaError);
    expect([claim.storeError?.code, claim.storeError?.message]).toEqual([
      'dedup_store_unavailable',
      'the dedup store failed to claim',
    ]);
    expect((claim.storeError?.cause as Error).message).toBe('ECONNREFUSED (claim)');
    expect(reported).toEqual([claim.storeError]);
  });

  test('fail-open: a commit once the store is back records what was handled, without taking over a live lease', async () => {
    const { store, state } = switchable(createMemoryStore());
    const deduper = createDeduper({ store });
    state.down = true;
    const blind = await deduper.claim(delivery([event(1), event(2)]));
    state.down = false;
    const other = await deduper.claim(delivery([event(2)]));
    await blind.commit();
    expect(ids((await deduper.claim(delivery([event(1)]))).seen)).toEqual([eventId(1)]);
    await other.release();
    expect(ids((await deduper.claim(delivery([event(2)]))).fresh)).toEqual([eventId(2)]);
  });

  test('fail-open: a failed commit or release resolves and is reported', async () => {
    const reported: string[] = [];
    const { store, state } = switchable(createMemoryStore());
    const deduper = createDeduper({ store, onError: (e) => reported.push(e.message) });
    const a = await deduper.claim(delivery([event(1)]));
    const b = await deduper.claim(delivery([event(2)]));
    state.down = true;
    await expect(a.commit()).resolves.toBeUndefined();
    await expect(b.release()).resolves.toBeUndefined();
    expect(reported).toEqual(['the dedup store failed to commit', 'the dedup store failed to release']);
  });

  test('fail-closed: a failed claim rejects with dedup_store_unavailable and holds nothing', async () => {
    const reported: string[] = [];
    const { store, state } = switchable(createMemoryStore());
    const deduper = createDeduper({ store, onStoreError: 'fail-closed', onError: (e) => reported.push(e.code) });
    state.down = true;
    const error = await deduper.claim(delivery([event(1)])).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BuzzMetaError);
    expect(error).toMatchObject({
      code: 'dedup_store_unavailable',
      path: '',
      message: 'the dedup store failed to claim',
    });
    expect(reported).toEqual(['dedup_store_unavailable']);
    state.down = false;
    expect(ids((await deduper.claim(delivery([event(1)]))).fresh)).toEqual([eventId(1)]);
  });

  test('fail-closed: a failed commit is tried settleAttempts times, then rejects; the claim stays settled', async () => {
    const { store, state } = switchable(createMemoryStore());
    const deduper = createDeduper({ store, onStoreError: 'fail-closed' });
    const claim = await deduper.claim(delivery([event(1)]));
    state.down = true;
    await expect(claim.commit()).rejects.toMatchObject({ code: 'dedup_store_unavailable' });
    await expect(claim.release()).resolves.toBeUndefined();
    state.down = false;
    expect(state.calls).toEqual(['claim', 'commit', 'commit', 'commit', 'commit']);
  });

  test('a store that throws instead of rejecting is a store failure too', async () => {
    const throwing: DedupStore = {
      ...createMemoryStore(),
      commit: () => {
        throw new Error('sync bug');
      },
    };
    const reported: string[] = [];
    const claim = await createDeduper({ store: throwing, onError: (e) => reported.push(e.message) }).claim(
      delivery([event(1)]),
    );
    await expect(claim.commit()).resolves.toBeUndefined();
    expect(reported).toEqual(['the dedup store failed to commit']);
  });

  test('a store whose release throws: fail-open resolves, fail-closed rejects, both report it', async () => {
    const throwing: DedupStore = {
      ...createMemoryStore(),
      release: () => {
        throw new Error('sync bug');
      },
    };
    const reported: string[] = [];
    const onError = (e: BuzzMetaError): void => {
      reported.push(`${e.code}: ${e.message}`);
    };
    const open = await createDeduper({ store: throwing, onError }).claim(delivery([event(1)]));
    await expect(open.release()).resolves.toBeUndefined();
    const closed = await createDeduper({ store: throwing, onError, onStoreError: 'fail-closed' }).claim(
      delivery([event(2)]),
    );
    const error = await closed.release().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BuzzMetaError);
    expect([(error as BuzzMetaError).message, ((error as BuzzMetaError).cause as Error).message]).toEqual([
      'the dedup store failed to release',
      'sync bug',
    ]);
    expect(reported).toEqual([
      'dedup_store_unavailable: the dedup store failed to release',
      'dedup_store_unavailable: the dedup store failed to release',
    ]);
  });

  test('a store answering for the wrong number of keys is a store failure', async () => {
    const broken: DedupStore = { ...createMemoryStore(), claim: () => Promise.resolve([true]) };
    const claim = await createDeduper({ store: broken }).claim(delivery([event(1), event(2)]));
    expect([claim.fresh.length, claim.storeError?.code]).toEqual([2, 'dedup_store_unavailable']);
    expect((claim.storeError?.cause as Error).message).toBe('the store answered for a different number of keys');
  });

  test('a throwing onError callback changes nothing', async () => {
    const { store, state } = switchable(createMemoryStore());
    const deduper = createDeduper({
      store,
      onError: () => {
        throw new Error('callback bug');
      },
    });
    state.down = true;
    const claim = await deduper.claim(delivery([event(1)]));
    expect(claim.storeError?.code).toBe('dedup_store_unavailable');
    await expect(claim.commit()).resolves.toBeUndefined();
  });
});

describe('options', () => {
  test.each([
    ['ttlMs', { ttlMs: 0 }],
    ['ttlMs', { ttlMs: 1.5 }],
    ['leaseMs', { leaseMs: -1 }],
    ['leaseMs', { leaseMs: Number.POSITIVE_INFINITY }],
  ] as const)('refuses a bad %s', (name, options) => {
    const error = thrownBuzzError(() => createDeduper(options));
    expect([error.code, error.path, error.message]).toEqual([
      'invalid_option',
      `/${name}`,
      `/${name}: ${name} must be a positive integer number of ms.`,
    ]);
  });

  test('refuses an unknown onStoreError', () => {
    const error = thrownBuzzError(() => createDeduper({ onStoreError: 'fail-soft' as 'fail-open' }));
    expect([error.code, error.path, error.message]).toEqual([
      'invalid_option',
      '/onStoreError',
      "/onStoreError: onStoreError must be 'fail-open' or 'fail-closed'.",
    ]);
  });

  test('accepts fail-open spelled out', () => {
    expect(() => createDeduper({ onStoreError: 'fail-open', ttlMs: 1, leaseMs: 1 })).not.toThrow();
  });
});
