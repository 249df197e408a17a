/**
 * Property: any interleaving of claim / commit / release / lease expiry across simulated workers
 * sharing one store never has an event in two live claims, never commits one twice, never leaves
 * one unclaimable, and agrees step by step with a model of the lease/TTL rules (docs/dedup.md).
 */
import { fc, test as fcTest } from '@fast-check/vitest';
import { expect, vi } from 'vitest';
import type { BuzzClaim, Deduper, DedupStore } from '../../src/dedup/types.js';
import { createDeduper } from '../../src/dedup/deduper.js';
import { createMemoryStore } from '../../src/dedup/memory-store.js';
import { numRuns } from '../support/fuzz.js';
import { delivery, event, ids } from './fixtures.js';

// Real time (Redis TTLs, restarts) or many generated cases: generous on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

const EVENTS = 6;
const WORKERS = 3;
const LEASE = 100;
const TTL = 1_000_000; // outlives every run: a committed event must stay handled

type Step =
  | { readonly t: 'claim'; readonly worker: number; readonly events: number[]; readonly cancelled: number[] }
  | { readonly t: 'commit' | 'release'; readonly which: number }
  | { readonly t: 'advance'; readonly ms: number };

const eventList = fc.array(fc.integer({ min: 0, max: EVENTS - 1 }), { maxLength: 4 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    t: fc.constant('claim' as const),
    worker: fc.integer({ min: 0, max: WORKERS - 1 }),
    events: eventList,
    cancelled: eventList,
  }),
  fc.record({ t: fc.constantFrom('commit' as const, 'release' as const), which: fc.nat() }),
  fc.record({ t: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: LEASE * 1.5 }) }),
);

/** What the model says about one event. */
type Model =
  { readonly state: 'free' } | { readonly state: 'held'; readonly by: number; readonly until: number } | 'done';

interface Tracked {
  readonly claim: BuzzClaim;
  readonly granted: readonly string[];
  readonly until: number;
  settled: boolean;
}

fcTest.prop([fc.array(step, { maxLength: 40 })], { numRuns })(
  'claims over one store agree with the lease/TTL model and never double-handle',
  async (steps) => {
    let now = 0;
    const store = createMemoryStore({ now: () => now });
    const workers = Array.from({ length: WORKERS }, () => createDeduper({ store, leaseMs: LEASE, ttlMs: TTL }));
    const model = new Map<string, Model>();
    const claims: Tracked[] = [];
    const inTimeCommits = new Map<string, number>();
    const stateOf = (id: string): Model => model.get(id) ?? { state: 'free' };
    const isLive = (t: Tracked): boolean => !t.settled && t.until > now;

    for (const s of steps) {
      if (s.t === 'advance') {
        now += s.ms;
        continue;
      }
      if (s.t === 'claim') {
        const events = s.events.map((n) => event(n));
        const cancelled = s.cancelled.map((n) => event(n));
        const claim = await (workers[s.worker] ?? workers[0])?.claim(delivery(events, cancelled));
        if (claim === undefined) throw new Error('no worker');
        // The model: distinct ids, events first; a free (or expired-lease) id is granted.
        const expected: string[] = [];
        for (const id of [...new Set([...events, ...cancelled].map((e) => e.id))]) {
          const m = stateOf(id);
          if (m === 'done' || (m.state === 'held' && m.until > now)) continue;
          model.set(id, { state: 'held', by: claims.length, until: now + LEASE });
          expected.push(id);
        }
        const granted = [...ids(claim.fresh), ...ids(claim.carried)] as string[];
        expect(granted).toEqual(expected);
        expect([...ids(claim.fresh), ...ids(claim.seen)].sort()).toEqual(ids(events).sort());
        // Mutual exclusion, straight from what the deduper answered.
        for (const other of claims.filter(isLive)) {
          expect(other.granted.filter((id) => granted.includes(id))).toEqual([]);
        }
        claims.push({ claim, granted, until: now + LEASE, settled: false });
        continue;
      }
      if (claims.length === 0) continue;
      const index = s.which % claims.length;
      const tracked = claims[index];
      if (tracked === undefined) continue;
      const wasSettled = tracked.settled;
      const live = isLive(tracked);
      tracked.settled = true;
      await (s.t === 'commit' ? tracked.claim.commit() : tracked.claim.release());
      if (wasSettled) continue;
      for (const id of tracked.granted) {
        const m = stateOf(id);
        const mine = m !== 'done' && m.state === 'held' && m.by === index;
        if (s.t === 'release') {
          if (mine) model.set(id, { state: 'free' });
        } else if (mine || (m !== 'done' && (m.state === 'free' || m.until <= now))) {
          model.set(id, 'done');
        }
      }
      if (s.t === 'commit' && live) {
        for (const id of tracked.granted) inTimeCommits.set(id, (inTimeCommits.get(id) ?? 0) + 1);
      }
    }

    // Never committed twice by claims that still held their events.
    for (const count of inTimeCommits.values()) expect(count).toBe(1);
    // Never unclaimable: once every lease is over, exactly the uncommitted events are fresh.
    now += LEASE;
    const all = Array.from({ length: EVENTS }, (_, n) => event(n));
    const final = await createDeduper({ store, leaseMs: LEASE, ttlMs: TTL }).claim(delivery(all));
    const expectedFresh = all.map((e) => e.id).filter((id) => stateOf(id) !== 'done');
    expect(ids(final.fresh)).toEqual(expectedFresh);
    for (const id of inTimeCommits.keys()) expect(ids(final.seen)).toContain(id);
  },
);

/**
 * The host side of a pool under store faults: deliveries the host retries until one is answered
 * with success, workers whose store calls fail, claims that fail on the client and land on the
 * server later, failed commits, crashed turns and lease expiry. Each turn answers as
 * `buzz-meta/acp` does (held events: an error; all handled: success without work).
 */
type FaultStep =
  | { readonly t: 'deliver'; readonly worker: number; readonly which: number; readonly fault: 'ok' | 'fail' | 'late' }
  | { readonly t: 'finish'; readonly which: number; readonly how: 'commit' | 'fail' | 'crash'; readonly fault: boolean }
  | { readonly t: 'land' }
  | { readonly t: 'advance'; readonly ms: number };

const faultStep: fc.Arbitrary<FaultStep> = fc.oneof(
  {
    arbitrary: fc.record({
      t: fc.constant('deliver' as const),
      worker: fc.integer({ min: 0, max: WORKERS - 1 }),
      which: fc.nat(),
      fault: fc.constantFrom('ok' as const, 'ok' as const, 'fail' as const, 'late' as const),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      t: fc.constant('finish' as const),
      which: fc.nat(),
      how: fc.constantFrom('commit' as const, 'commit' as const, 'fail' as const, 'crash' as const),
      fault: fc.boolean(),
    }),
    weight: 2,
  },
  fc.record({ t: fc.constant('land' as const) }),
  fc.record({ t: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: LEASE * 1.5 }) }),
);

/** A turn in flight: which delivery, what it handled, and whether its claim had the store's answer. */
interface Handling {
  readonly answered: boolean;
  inTime: boolean;
  committed: boolean;
}

interface OpenTurn {
  readonly delivery: number;
  readonly claim: BuzzClaim;
  readonly handlings: Handling[];
  readonly answered: boolean;
  readonly until: number;
  open: boolean;
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

fcTest.prop([fc.array(faultStep, { maxLength: 40 }), fc.constantFrom('fail-open' as const, 'fail-closed' as const)], {
  numRuns,
})(
  'under store faults a host that retries errors gets every event handled, never twice while the store answers',
  async (steps, onStoreError) => {
    let now = 0;
    const inner = createMemoryStore({ now: () => now });
    let fault: 'ok' | 'fail' | 'late' | 'settle-fails' = 'ok';
    const lateClaims: (() => void)[] = [];
    const store: DedupStore = {
      claim: (request) => {
        if (fault === 'fail') return Promise.reject(new Error('ECONNREFUSED'));
        if (fault === 'late') {
          // The client gives up, the server runs the claim later.
          lateClaims.push(() => void inner.claim(request));
          return Promise.reject(new Error('timeout'));
        }
        return inner.claim(request);
      },
      commit: (request) => (fault === 'settle-fails' ? Promise.reject(new Error('ECONNRESET')) : inner.commit(request)),
      release: (request) => inner.release(request),
    };
    const options = { store, leaseMs: LEASE, ttlMs: TTL, onStoreError, settleAttempts: 1 };
    const workers = Array.from({ length: WORKERS }, () => createDeduper(options));
    // Deliveries: every event once, in three overlapping batches; the host retries until success.
    const deliveries = [
      [0, 1, 2],
      [2, 3, 4],
      [4, 5, 0],
    ].map((ns) => ns.map((n) => event(n)));
    const pending = new Set(deliveries.keys());
    const handledBy = new Map<string, Handling[]>();
    const turns: OpenTurn[] = [];

    /** One attempt of delivery `which` on `deduper`, answered as buzz-meta/acp answers it. */
    async function attempt(deduper: Deduper, which: number): Promise<void> {
      const events = deliveries[which] ?? [];
      let claim: BuzzClaim;
      try {
        claim = await deduper.claim(delivery(events));
      } catch {
        return; // An error: the host retries.
      }
      const answered = claim.storeError === undefined;
      if ((claim.held ?? []).length > 0 || (claim.heldCancelled ?? []).length > 0) {
        await claim.release();
        return; // dedup_events_held: the host retries.
      }
      if (claim.fresh.length === 0) {
        pending.delete(which); // all-seen: success.
        return;
      }
      const handlings: Handling[] = [];
      for (const e of claim.fresh) {
        const handling: Handling = { answered, inTime: true, committed: false };
        handlings.push(handling);
        handledBy.set(e.id ?? '', [...(handledBy.get(e.id ?? '') ?? []), handling]);
      }
      turns.push({ delivery: which, claim, handlings, answered, until: now + LEASE, open: true });
    }

    async function finish(turn: OpenTurn, how: 'commit' | 'fail', commitFails: boolean): Promise<void> {
      turn.open = false;
      if (how === 'fail') {
        await turn.claim.release();
        return;
      }
      fault = commitFails ? 'settle-fails' : 'ok';
      const ok = await turn.claim.commit().then(
        () => true,
        () => false,
      );
      fault = 'ok';
      for (const handling of turn.handlings) {
        handling.committed = !commitFails;
        handling.inTime = turn.until > now;
      }
      // A commit that failed under fail-closed is an error to the host; otherwise the turn succeeded.
      if (ok) pending.delete(turn.delivery);
    }

    for (const s of steps) {
      if (s.t === 'advance') now += s.ms;
      else if (s.t === 'land') for (const land of lateClaims.splice(0)) land();
      else if (s.t === 'deliver') {
        const open = [...pending];
        const which = open[s.which % Math.max(open.length, 1)];
        if (which === undefined) continue;
        fault = s.fault;
        await attempt(workers[s.worker] ?? createDeduper(options), which);
        fault = 'ok';
      } else {
        const open = turns.filter((t) => t.open);
        const turn = open[s.which % Math.max(open.length, 1)];
        if (turn === undefined) continue;
        if (s.how === 'crash') {
          turn.open = false;
        } // Never settles: its leases lapse.
        else await finish(turn, s.how, s.fault);
      }
      await flush();
    }

    // Late claims land at last; then the host keeps retrying, the store healthy, time passing.
    for (const land of lateClaims.splice(0)) land();
    await flush();
    for (const turn of turns.filter((t) => t.open)) await finish(turn, 'commit', false);
    for (let round = 0; round < 10 && pending.size > 0; round++) {
      now += LEASE;
      for (const which of [...pending]) {
        await attempt(workers[0] ?? createDeduper(options), which);
        for (const turn of turns.filter((t) => t.open)) await finish(turn, 'commit', false);
      }
      await flush();
    }

    expect(pending.size).toBe(0);
    for (let n = 0; n < EVENTS; n++) expect(handledBy.get(event(n).id)?.length ?? 0).toBeGreaterThan(0);
    // While the store answered: never two committed, in-time handlings of one event.
    for (const list of handledBy.values()) {
      expect(list.filter((h) => h.answered && h.committed && h.inTime).length).toBeLessThanOrEqual(1);
    }
  },
);
