/**
 * One contract suite for every DedupStore (memory with an injected clock, Redis with short real
 * TTLs): what a claim, commit and release do to a key, and that a token guards every lease.
 *
 * @packageDocumentation
 */
import { beforeEach, describe, expect, test } from 'vitest';
import type { DedupClaimAnswer, DedupStore } from '../../src/dedup/types.js';
import { CHANNEL, OTHER_CHANNEL, eventId } from './fixtures.js';

/** A fresh store for one test, and how to let time pass for it. */
export interface StoreHarness {
  readonly store: DedupStore;
  /** Lets `ms` pass for the store (moves an injected clock, or sleeps). */
  advance(ms: number): Promise<void>;
}

/** Timing of one store under test: lease and TTL, and a margin past which they are surely over. */
export interface ContractTiming {
  readonly leaseMs: number;
  readonly ttlMs: number;
  readonly marginMs: number;
}

const A = eventId(1);
const B = eventId(2);
const C = eventId(3);
const HASHED = `h:${'0'.repeat(64)}`;

/** Registers the contract tests for the stores `setup` makes. */
export function describeStoreContract(
  name: string,
  timing: ContractTiming,
  setup: () => StoreHarness | Promise<StoreHarness>,
): void {
  const { leaseMs, ttlMs, marginMs } = timing;
  describe(`DedupStore contract: ${name}`, () => {
    let h: StoreHarness;
    beforeEach(async () => {
      h = await setup();
    });
    const claim = (ids: string[], token: string, scope = CHANNEL): Promise<readonly DedupClaimAnswer[]> =>
      h.store.claim({ scope, ids, token, leaseMs });
    const commit = (ids: string[], token: string): Promise<void> =>
      h.store.commit({ scope: CHANNEL, ids, token, ttlMs });
    const release = (ids: string[], token: string): Promise<void> => h.store.release({ scope: CHANNEL, ids, token });

    test('a claim takes free keys, and a second claim of a held key is refused as held, per key in order', async () => {
      expect(await claim([A, B], 't1')).toEqual([true, true]);
      expect(await claim([C, A, HASHED, B], 't2')).toEqual([true, 'held', true, 'held']);
    });

    test('the same id in another channel is another key', async () => {
      expect(await claim([A], 't1')).toEqual([true]);
      expect(await claim([A], 't2', OTHER_CHANNEL)).toEqual([true]);
    });

    test('commit marks held keys handled; they stay refused until the TTL passes', async () => {
      await claim([A, B], 't1');
      await commit([A, B], 't1');
      expect(await claim([A, B], 't2')).toEqual(['handled', 'handled']);
      await h.advance(Math.max(leaseMs, ttlMs) + marginMs);
      expect(await claim([A, B], 't3')).toEqual([true, true]);
    });

    test('a committed key outlives the lease it was claimed with', async () => {
      await claim([A], 't1');
      await commit([A], 't1');
      await h.advance(leaseMs + marginMs);
      expect(await claim([A], 't2')).toEqual(['handled']);
    });

    test('release frees held keys at once', async () => {
      await claim([A, B], 't1');
      await release([A], 't1');
      expect(await claim([A, B], 't2')).toEqual([true, 'held']);
    });

    test('an unsettled lease expires after leaseMs and the key is claimable again', async () => {
      await claim([A], 't1');
      expect(await claim([A], 't2')).toEqual(['held']);
      await h.advance(leaseMs + marginMs);
      expect(await claim([A], 't2')).toEqual([true]);
    });

    test('release with a foreign token leaves the lease in place', async () => {
      await claim([A], 't1');
      await release([A], 't2');
      expect(await claim([A], 't3')).toEqual(['held']);
    });

    test('commit with a foreign token neither marks nor frees a live lease', async () => {
      await claim([A], 't1');
      await commit([A], 't2');
      await release([A], 't1');
      expect(await claim([A], 't3')).toEqual([true]);
    });

    test('an expired claim settling late does not undo the claim that took its keys over', async () => {
      await claim([A, B], 'late');
      await h.advance(leaseMs + marginMs);
      expect(await claim([A], 'next')).toEqual([true]);
      await release([A, B], 'late');
      expect(await claim([A], 'third')).toEqual(['held']);
      await commit([A, B], 'late');
      // B was free (its lease expired, nobody took it): the late commit records the work done.
      expect(await claim([B], 'third')).toEqual(['handled']);
      // A is still 'next''s: its release frees it.
      await release([A], 'next');
      expect(await claim([A], 'third')).toEqual([true]);
    });

    test('commit leaves a key another claim already committed as it is', async () => {
      await claim([A], 't1');
      await commit([A], 't1');
      await commit([A], 't2');
      await release([A], 't2');
      expect(await claim([A], 't3')).toEqual(['handled']);
    });

    test('release after commit does not free a handled key', async () => {
      await claim([A], 't1');
      await commit([A], 't1');
      await release([A], 't1');
      expect(await claim([A], 't2')).toEqual(['handled']);
    });
  });
}
