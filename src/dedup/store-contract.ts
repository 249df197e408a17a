/**
 * The contract every `DedupStore` keeps, as named async cases a test runner registers: what a
 * claim, commit and release do to a key, that a lease and a handled mark expire, and that a token
 * guards every lease. The memory and Redis stores that ship pass it; a store of your own should
 * too. Runner-agnostic: each case rejects with an `Error` naming the call and the answer that broke
 * the contract, and needs nothing but a fresh store and a way to let time pass.
 */
import { BuzzMetaError } from '../errors.js';
import type { DedupClaimAnswer, DedupStore } from './types.js';

/**
 * A fresh, empty store for one case, and how to let time pass for it.
 *
 * @example
 * ```ts
 * import { createMemoryStore } from 'buzz-meta'
 * import { storeContractCases, type StoreHarness } from 'buzz-meta/testing'
 *
 * let now = 0 // the memory store's injected clock: time passes at once
 * const harness = (): StoreHarness => ({
 *   store: createMemoryStore({ now: () => now }),
 *   advance: async (ms) => {
 *     now += ms
 *   },
 * })
 * for (const contractCase of storeContractCases({ leaseMs: 1_000, ttlMs: 2_000, marginMs: 0 })) {
 *   await contractCase.run(harness()) // rejects with what broke the contract
 * }
 * ```
 * @group Testing
 */
export interface StoreHarness {
  /** The store under test; nothing else writes to it during the case. */
  readonly store: DedupStore;
  /** Lets `ms` pass for the store: moves an injected clock, or sleeps for real. */
  advance(ms: number): Promise<void>;
}

/**
 * The lease and handled-mark lifetimes the cases use, and how long past them a store surely let them go.
 *
 * @example
 * ```ts
 * import { storeContractCases, type StoreContractTiming } from 'buzz-meta/testing'
 *
 * // A store whose expiry lags: lifetimes long enough to measure, and a margin past them.
 * const timing: StoreContractTiming = { leaseMs: 2_000, ttlMs: 3_000, marginMs: 1_000 }
 * const cases = storeContractCases(timing)
 * ```
 * @group Testing
 */
export interface StoreContractTiming {
  /** `leaseMs` of every claim, in ms. */
  readonly leaseMs: number;
  /** `ttlMs` of every commit, in ms. */
  readonly ttlMs: number;
  /** How long past a lifetime the cases wait before they expect it over (a store's clock granularity, TTL lag). */
  readonly marginMs: number;
}

/**
 * One case of the contract.
 *
 * @example
 * ```ts
 * import { test } from 'node:test'
 * import { createMemoryStore } from 'buzz-meta'
 * import { storeContractCases, type StoreContractCase } from 'buzz-meta/testing'
 *
 * const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms))
 * const cases: readonly StoreContractCase[] = storeContractCases({ leaseMs: 400, ttlMs: 700, marginMs: 50 })
 * for (const contractCase of cases) {
 *   test(contractCase.name, () => contractCase.run({ store: createMemoryStore(), advance: sleep }))
 * }
 * ```
 * @group Testing
 */
export interface StoreContractCase {
  /** What the case checks, as a sentence (use it as the test name). */
  readonly name: string;
  /** Runs the case on a fresh harness; rejects with an `Error` saying which call broke the contract. */
  run(harness: StoreHarness): Promise<void>;
}

/** The channel the cases claim in, and another one. */
const CHANNEL = '5f0c3e59-8a5d-4c4f-9d2c-0a1b2c3d4e5f';
const OTHER_CHANNEL = '0e9d8c7b-6a59-4837-a261-5f4e3d2c1b0a';

/** The dedup keys the cases use (event ids, and the hashed key of a scraped event without one), by the names messages show. */
const KEYS = {
  A: `e${'1'.padStart(63, '0')}`,
  B: `e${'2'.padStart(63, '0')}`,
  C: `e${'3'.padStart(63, '0')}`,
  H: `h:${'0'.repeat(64)}`,
} as const;
type KeyName = keyof typeof KEYS;

/** The calls of one case against one harness, each checked or named in a failure. */
class Calls {
  readonly #harness: StoreHarness;
  readonly #timing: StoreContractTiming;

  constructor(harness: StoreHarness, timing: StoreContractTiming) {
    this.#harness = harness;
    this.#timing = timing;
  }

  /** Claims `keys` under `token` and checks the answers, one per key in order. */
  async claim(keys: KeyName[], token: string, expected: DedupClaimAnswer[], scope = CHANNEL): Promise<void> {
    const ids = keys.map((key) => KEYS[key]);
    const answers = await this.#harness.store.claim({ scope, ids, token, leaseMs: this.#timing.leaseMs });
    const what = `claim(${keys.join(', ')}) under token ${token}${scope === CHANNEL ? '' : ' in another channel'}`;
    const same =
      Array.isArray(answers) &&
      answers.length === expected.length &&
      expected.every((answer, index) => answers[index] === answer);
    if (!same) {
      throw new Error(`${what} answered ${shown(answers)}; the contract says ${shown(expected)}`);
    }
  }

  /** Commits `keys` under `token`. */
  async commit(keys: KeyName[], token: string): Promise<void> {
    const ids = keys.map((key) => KEYS[key]);
    await this.#harness.store.commit({ scope: CHANNEL, ids, token, ttlMs: this.#timing.ttlMs });
  }

  /** Releases `keys` under `token`. */
  async release(keys: KeyName[], token: string): Promise<void> {
    await this.#harness.store.release({ scope: CHANNEL, ids: keys.map((key) => KEYS[key]), token });
  }

  /** Lets `ms` plus the margin pass. */
  async pass(ms: number): Promise<void> {
    await this.#harness.advance(ms + this.#timing.marginMs);
  }
}

/** Answers as the message shows them: `[true, "held"]`. */
function shown(answers: unknown): string {
  if (answers === undefined) return 'undefined';
  try {
    return JSON.stringify(answers);
  } catch {
    // A BigInt or a cycle: what a broken store may resolve.
    return Array.isArray(answers) ? `[${answers.map((answer) => typeof answer).join(',')}]` : typeof answers;
  }
}

type Body = (calls: Calls, timing: StoreContractTiming) => Promise<void>;

/** The cases, in the order a reader learns the contract. */
const CASES: readonly (readonly [string, Body])[] = [
  [
    'a claim takes free keys, and a second claim of a held key is refused as held, per key in order',
    async (c) => {
      await c.claim(['A', 'B'], 't1', [true, true]);
      await c.claim(['C', 'A', 'H', 'B'], 't2', [true, 'held', true, 'held']);
    },
  ],
  [
    'the same id in another channel is another key',
    async (c) => {
      await c.claim(['A'], 't1', [true]);
      await c.claim(['A'], 't2', [true], OTHER_CHANNEL);
    },
  ],
  [
    'commit marks held keys handled; they stay refused until the TTL passes',
    async (c, { leaseMs, ttlMs }) => {
      await c.claim(['A', 'B'], 't1', [true, true]);
      await c.commit(['A', 'B'], 't1');
      await c.claim(['A', 'B'], 't2', ['handled', 'handled']);
      await c.pass(Math.max(leaseMs, ttlMs));
      await c.claim(['A', 'B'], 't3', [true, true]);
    },
  ],
  [
    'a committed key outlives the lease it was claimed with',
    async (c, { leaseMs }) => {
      await c.claim(['A'], 't1', [true]);
      await c.commit(['A'], 't1');
      await c.pass(leaseMs);
      await c.claim(['A'], 't2', ['handled']);
    },
  ],
  [
    'release frees held keys at once',
    async (c) => {
      await c.claim(['A', 'B'], 't1', [true, true]);
      await c.release(['A'], 't1');
      await c.claim(['A', 'B'], 't2', [true, 'held']);
    },
  ],
  [
    'an unsettled lease expires after leaseMs and the key is claimable again',
    async (c, { leaseMs }) => {
      await c.claim(['A'], 't1', [true]);
      await c.claim(['A'], 't2', ['held']);
      await c.pass(leaseMs);
      await c.claim(['A'], 't2', [true]);
    },
  ],
  [
    'release with a foreign token leaves the lease in place',
    async (c) => {
      await c.claim(['A'], 't1', [true]);
      await c.release(['A'], 't2');
      await c.claim(['A'], 't3', ['held']);
    },
  ],
  [
    'commit with a foreign token neither marks nor frees a live lease',
    async (c) => {
      await c.claim(['A'], 't1', [true]);
      await c.commit(['A'], 't2');
      await c.release(['A'], 't1');
      await c.claim(['A'], 't3', [true]);
    },
  ],
  [
    'an expired claim settling late does not undo the claim that took its keys over',
    async (c, { leaseMs }) => {
      await c.claim(['A', 'B'], 'late', [true, true]);
      await c.pass(leaseMs);
      await c.claim(['A'], 'next', [true]);
      await c.release(['A', 'B'], 'late');
      await c.claim(['A'], 'third', ['held']);
      await c.commit(['A', 'B'], 'late');
      // B was free (its lease expired, nobody took it): the late commit records the work done.
      await c.claim(['B'], 'third', ['handled']);
      // A is still next's: its release frees it.
      await c.release(['A'], 'next');
      await c.claim(['A'], 'third', [true]);
    },
  ],
  [
    'commit leaves a key another claim already committed as it is',
    async (c) => {
      await c.claim(['A'], 't1', [true]);
      await c.commit(['A'], 't1');
      await c.commit(['A'], 't2');
      await c.release(['A'], 't2');
      await c.claim(['A'], 't3', ['handled']);
    },
  ],
  [
    'release after commit does not free a handled key',
    async (c) => {
      await c.claim(['A'], 't1', [true]);
      await c.commit(['A'], 't1');
      await c.release(['A'], 't1');
      await c.claim(['A'], 't2', ['handled']);
    },
  ],
];

/** A safe integer of at least `least`. */
function checkTiming(timing: StoreContractTiming, name: keyof StoreContractTiming, least: number): void {
  const value: unknown = timing[name];
  if (!Number.isSafeInteger(value) || (value as number) < least) {
    throw BuzzMetaError.of('invalid_option', `/${name}`, `${name} must be an integer of at least ${String(least)} ms`);
  }
}

/**
 * The cases of the `DedupStore` contract, for your test runner: register each under its `name`
 * and run it with a fresh store. Pick `timing` short enough for a quick run and long enough that
 * no lease lapses between two calls of a case on a loaded machine (the Redis store's own run uses
 * 400 / 700 / 50 ms); with an injected clock, any values.
 *
 * @example
 * ```ts
 * import { describe, test } from 'vitest' // or node:test
 * import { createMemoryStore } from 'buzz-meta'
 * import { storeContractCases } from 'buzz-meta/testing'
 *
 * const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms))
 * describe('my store keeps the DedupStore contract', () => {
 *   for (const contractCase of storeContractCases({ leaseMs: 400, ttlMs: 700, marginMs: 50 })) {
 *     // A fresh store per case: put yours in place of the memory store.
 *     test(contractCase.name, () => contractCase.run({ store: createMemoryStore(), advance: sleep }))
 *   }
 * })
 * ```
 * @throws BuzzMetaError `invalid_option` when a timing is not a positive integer (`marginMs` may be 0).
 * @group Testing
 */
export function storeContractCases(timing: StoreContractTiming): readonly StoreContractCase[] {
  checkTiming(timing, 'leaseMs', 1);
  checkTiming(timing, 'ttlMs', 1);
  checkTiming(timing, 'marginMs', 0);
  const own: StoreContractTiming = { leaseMs: timing.leaseMs, ttlMs: timing.ttlMs, marginMs: timing.marginMs };
  return CASES.map(([name, body]) => ({ name, run: (harness) => body(new Calls(harness, own), own) }));
}
