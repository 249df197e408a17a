/** A claim once the store answered: its events by answer, settled once by commit or release. */
import type { BuzzEvent } from '../context.js';
import type { BuzzMetaError } from '../errors.js';
import type { SortedEvents } from './claim-keys.js';
import type { StoreCalls } from './store-calls.js';
import type { BuzzClaim, DedupStoreRequest } from './types.js';

const settledPromise: Promise<void> = Promise.resolve();

/** One claim: settles once, through the deduper's store and policy. */
export class Claim<E extends BuzzEvent> implements BuzzClaim<E> {
  // Declared, not defined: a claim without a store error has no `storeError` key at all.
  declare readonly storeError?: BuzzMetaError;
  readonly fresh: readonly E[];
  readonly seen: readonly E[];
  readonly handled: readonly E[];
  readonly held: readonly E[];
  readonly carried: readonly BuzzEvent[];
  readonly heldCancelled: readonly BuzzEvent[];
  readonly #calls: StoreCalls;
  /** How the claim was settled: the store call a late-landing claim is settled with again. */
  #settledWith: (() => Promise<void>) | undefined;

  constructor(
    calls: StoreCalls,
    sorted: SortedEvents<E>,
    storeError: BuzzMetaError | undefined,
    /** What to settle; `undefined` once settled, or when nothing was claimed. */
    private pending: DedupStoreRequest | undefined,
  ) {
    this.#calls = calls;
    this.fresh = sorted.fresh;
    this.seen = sorted.seen;
    this.handled = sorted.handled;
    this.held = sorted.held;
    this.carried = sorted.carried;
    this.heldCancelled = sorted.heldCancelled;
    if (storeError !== undefined) this.storeError = storeError;
  }

  commit(): Promise<void> {
    return this.#settle('commit', (request) => this.#calls.commit(request));
  }

  release(): Promise<void> {
    return this.#settle('release', (request) => this.#calls.release(request));
  }

  /** Settles again as before (nothing when not settled yet: that settle will cover the late leases). */
  settleAgain(): void {
    const run = this.#settledWith;
    if (run !== undefined) void this.#calls.cleanUp(run);
  }

  #settle(action: string, callFor: (request: DedupStoreRequest) => () => Promise<void>): Promise<void> {
    const request = this.pending;
    if (request === undefined) return settledPromise;
    this.pending = undefined;
    const run = callFor(request);
    this.#settledWith = run;
    return this.#calls.settle(action, run);
  }
}
