/**
 * `buzz-meta/testing`'s contract cases themselves: the names a runner shows, that a store which
 * breaks the contract fails the case with a message naming the call and both answers (a store
 * that answers every claim `true`, one that still answers `false` for held keys, one that forgets
 * commits), and that a timing which cannot work is refused.
 */
import { describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/index.js';
import type { DedupStore } from '../../src/dedup/types.js';
import { storeContractCases } from '../../src/testing.js';
import { thrownBuzzError } from '../support/thrown.js';

const TIMING = { leaseMs: 1_000, ttlMs: 60_000, marginMs: 1 };

/** A memory store on a clock the case moves, with `change` applied to its calls. */
function harness(change: (store: DedupStore) => DedupStore = (store) => store) {
  let now = 1_000_000;
  const store = change(createMemoryStore({ now: () => now }));
  return {
    store,
    advance: (ms: number): Promise<void> => {
      now += ms;
      return Promise.resolve();
    },
  };
}

function caseNamed(name: string) {
  const found = storeContractCases(TIMING).find((contractCase) => contractCase.name === name);
  if (found === undefined) throw new Error(`no case ${name}`);
  return found;
}

describe('storeContractCases', () => {
  test('eleven cases, named as a runner shows them; the memory store passes each', async () => {
    const cases = storeContractCases(TIMING);
    expect(cases.map((contractCase) => contractCase.name)).toEqual([
      'a claim takes free keys, and a second claim of a held key is refused as held, per key in order',
      'the same id in another channel is another key',
      'commit marks held keys handled; they stay refused until the TTL passes',
      'a committed key outlives the lease it was claimed with',
      'release frees held keys at once',
      'an unsettled lease expires after leaseMs and the key is claimable again',
      'release with a foreign token leaves the lease in place',
      'commit with a foreign token neither marks nor frees a live lease',
      'an expired claim settling late does not undo the claim that took its keys over',
      'commit leaves a key another claim already committed as it is',
      'release after commit does not free a handled key',
    ]);
    for (const contractCase of cases) await contractCase.run(harness());
  });

  test('a store that answers every claim true fails, naming the call and both answers', async () => {
    const yes = (store: DedupStore): DedupStore => ({
      ...store,
      claim: (request) => Promise.resolve(request.ids.map(() => true)),
    });
    await expect(caseNamed('release frees held keys at once').run(harness(yes))).rejects.toThrow(
      new Error('claim(A, B) under token t2 answered [true,true]; the contract says [true,"held"]'),
    );
  });

  test('a store that answers false (held and handled not told apart) fails the cases that tell them', async () => {
    const old = (store: DedupStore): DedupStore => ({
      ...store,
      claim: async (request) => (await store.claim(request)).map((answer) => answer === true),
    });
    const run = caseNamed('the same id in another channel is another key').run(harness(old));
    await expect(run).resolves.toBeUndefined();
    await expect(caseNamed('release with a foreign token leaves the lease in place').run(harness(old))).rejects.toThrow(
      new Error('claim(A) under token t3 answered [false]; the contract says ["held"]'),
    );
  });

  test('a store that forgets commits fails when the mark should outlive the lease', async () => {
    const forgetful = (store: DedupStore): DedupStore => ({ ...store, commit: (request) => store.release(request) });
    await expect(
      caseNamed('a committed key outlives the lease it was claimed with').run(harness(forgetful)),
    ).rejects.toThrow(new Error('claim(A) under token t2 answered [true]; the contract says ["handled"]'));
  });

  test('answers that are no array of answers are shown as they are', async () => {
    const answering =
      (answers: unknown) =>
      (store: DedupStore): DedupStore => ({
        ...store,
        claim: () => Promise.resolve(answers as readonly boolean[]),
      });
    const first = caseNamed('release frees held keys at once');
    await expect(first.run(harness(answering(undefined)))).rejects.toThrow(
      new Error('claim(A, B) under token t1 answered undefined; the contract says [true,true]'),
    );
    await expect(first.run(harness(answering([1n, 2n])))).rejects.toThrow(
      new Error('claim(A, B) under token t1 answered [bigint,bigint]; the contract says [true,true]'),
    );
  });

  test('another channel is named in the message', async () => {
    const oneChannel = (store: DedupStore): DedupStore => ({
      ...store,
      claim: (request) => store.claim({ ...request, scope: 'one' }),
    });
    await expect(caseNamed('the same id in another channel is another key').run(harness(oneChannel))).rejects.toThrow(
      new Error('claim(A) under token t2 in another channel answered ["held"]; the contract says [true]'),
    );
  });

  test.each([
    [{ ...TIMING, leaseMs: 0 }, '/leaseMs', 'leaseMs must be an integer of at least 1 ms'],
    [{ ...TIMING, ttlMs: 1.5 }, '/ttlMs', 'ttlMs must be an integer of at least 1 ms'],
    [{ ...TIMING, marginMs: -1 }, '/marginMs', 'marginMs must be an integer of at least 0 ms'],
  ])('timing %j is refused', (timing, path, message) => {
    const error = thrownBuzzError(() => storeContractCases(timing));
    expect([error.code, error.path, error.reason]).toEqual(['invalid_option', path, message]);
  });

  test('a margin of 0 is allowed (an injected clock needs none)', async () => {
    for (const contractCase of storeContractCases({ ...TIMING, marginMs: 0 })) await contractCase.run(harness());
  });
});
