/**
 * Property: any interleaving of claim / commit / release / lease expiry across simulated workers
 * sharing one store never has an event in two live claims, never commits one twice, never leaves
 * one unclaimable, and agrees step by step with a model of the lease/TTL rules (docs/dedup.md).
 */
import { fc, test as fcTest } from '@fast-check/vitest';
import { expect, vi } from 'vitest';
import type { BuzzClaim } from '../../src/dedup/types.js';
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
