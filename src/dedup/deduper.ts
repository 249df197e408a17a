/**
 * `createDeduper`: claim → commit/release over a {@link DedupStore}. At-least-once delivery in,
 * effectively-once handling out. The lease/TTL model and failure policy: docs/dedup.md.
 */
import type { BuzzContext, BuzzEvent } from '../context.js';
import { nodeCrypto } from '../deferred.js';
import { BuzzMetaError } from '../errors.js';
import { dedupKeyOf } from './event-key.js';
import { createMemoryStore } from './memory-store.js';
import type { BuzzClaim, Deduper, DedupStore, DedupStoreRequest } from './types.js';

/** What a deduper does when its store fails; see docs/dedup.md, "Failure policy". */
export type StoreErrorPolicy = 'fail-open' | 'fail-closed';

/** Options of {@link createDeduper}. */
export interface DeduperOptions {
  /** Where claims live; default a fresh `createMemoryStore()` (one process only). */
  readonly store?: DedupStore;
  /** How long a committed event counts as handled, in ms; default 24 h. */
  readonly ttlMs?: number;
  /** How long an unsettled claim holds its events before they are claimable again, in ms; default 5 min. */
  readonly leaseMs?: number;
  /**
   * `'fail-open'` (default): a failed claim treats every event as fresh and says so in
   * `storeError`; `'fail-closed'`: it rejects with `dedup_store_unavailable`.
   */
  readonly onStoreError?: StoreErrorPolicy;
  /** Called with every store failure (claim, commit, release) under either policy. Never log keys from it. */
  readonly onError?: (error: BuzzMetaError) => void;
}

const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;
const DEFAULT_LEASE_MS = 5 * 60 * 1000;
const settledPromise: Promise<void> = Promise.resolve();

function positiveMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw BuzzMetaError.of('invalid_option', `/${name}`, `${name} must be a positive integer number of ms.`);
  }
  return value;
}

/** Whether the policy is fail-closed; checked at run time too: a JavaScript caller may pass anything. */
function failsClosed(value: unknown): boolean {
  if (value === undefined || value === 'fail-open') return false;
  if (value === 'fail-closed') return true;
  throw BuzzMetaError.of('invalid_option', '/onStoreError', "onStoreError must be 'fail-open' or 'fail-closed'.");
}

/** The default `onError`: failures are still handled by the policy, just not reported anywhere. */
function ignoreError(): void {
  // Nothing to do.
}

/** Wraps a store failure; the store's own error is kept as `cause`, never echoed in the message. */
function storeFailure(action: string, cause: unknown): BuzzMetaError {
  const error = BuzzMetaError.of('dedup_store_unavailable', '', `the dedup store failed to ${action}`);
  error.cause = cause;
  return error;
}

/**
 * Appends the dedup keys of `events` in `scope` to `ids`, distinct and in order, and to `slots`
 * each event's index in `ids`, or -1 for a repeat within the delivery. Small deliveries (the usual
 * case) find repeats by scanning, large ones through `index`. A plain loop, no closure per call:
 * this is the per-claim hot path.
 */
function collectKeys(
  scope: string,
  events: readonly BuzzEvent[],
  ids: string[],
  slots: number[],
  index: Map<string, number> | undefined,
): void {
  for (const event of events) {
    const key = dedupKeyOf(scope, event);
    // Stryker disable next-line ConditionalExpression: a scan of `ids` finds the same position the index holds (a speed choice)
    const known = index === undefined ? ids.indexOf(key) : (index.get(key) ?? -1);
    if (known !== -1) {
      slots.push(-1);
      continue;
    }
    index?.set(key, ids.length);
    slots.push(ids.length);
    ids.push(key);
  }
}

/** Whether the event at `position` (in delivery-then-cancelled order) got a lease of its own. */
function isGranted(slots: readonly number[], granted: readonly boolean[], position: number): boolean {
  // A repeat's slot is -1, where `granted` holds nothing.
  // Stryker disable next-line UnaryOperator: every position has a slot, so the fallback is never used
  return granted[slots[position] ?? -1] === true;
}

/**
 * Creates a {@link Deduper}: `claim(context)` splits the context's events into `fresh` (claimed for
 * this turn) and `seen` (handled, or in flight elsewhere); `commit()` after the turn marks them
 * handled for `ttlMs`, `release()` after a cancel or failure frees them at once, and an unsettled
 * claim frees them after `leaseMs`. Share one store (e.g. `buzz-meta/redis`) across a pool.
 *
 * @example
 * ```ts
 * const deduper = createDeduper();
 * const claim = await deduper.claim(context);
 * try {
 *   for (const event of claim.fresh) await handle(event);
 *   await claim.commit();
 * } catch (error) {
 *   await claim.release();
 *   throw error;
 * }
 * ```
 */
export function createDeduper(options: DeduperOptions = {}): Deduper {
  const store = options.store ?? createMemoryStore();
  const ttlMs = positiveMs(options.ttlMs, DEFAULT_TTL_MS, 'ttlMs');
  const leaseMs = positiveMs(options.leaseMs, DEFAULT_LEASE_MS, 'leaseMs');
  const failClosed = failsClosed(options.onStoreError);
  const onError = options.onError ?? ignoreError;
  // Tokens: unique per deduper (random) and per claim (counter), cheap to make.
  const tokenPrefix = `t${nodeCrypto().randomUUID()}:`;
  let counter = 0;

  function report(error: BuzzMetaError): void {
    try {
      onError(error);
    } catch {
      // A throwing callback must not turn a reported failure into a lost claim.
    }
  }

  /**
   * The policy applied to a failed commit or release: fail-closed rejects, fail-open reports and
   * resolves. Made once per deduper, not per settle.
   */
  function failureHandler(action: string): (cause: unknown) => void {
    return (cause) => {
      const error = storeFailure(action, cause);
      report(error);
      if (failClosed) throw error;
    };
  }
  const commitFailed = failureHandler('commit');
  const releaseFailed = failureHandler('release');

  /** A store that throws instead of rejecting: the same policy, still asynchronously. */
  function failedNow(cause: unknown, failed: (cause: unknown) => void): Promise<void> {
    return Promise.resolve(cause).then(failed);
  }

  async function claim<C extends BuzzContext>(context: C): Promise<BuzzClaim<C['events'][number]>> {
    type E = C['events'][number];
    const scope = context.channelId;
    const events: readonly E[] = context.events;
    const cancelled: readonly BuzzEvent[] = context.cancelledEvents;
    // Distinct keys in order, the delivery's events first, then the cancelled ones it carries.
    const ids: string[] = [];
    const slots: number[] = [];
    // Stryker disable next-line all: a speed choice only (scan or Map find the same repeats), pinned by tests on both sides
    const index = events.length + cancelled.length > 16 ? new Map<string, number>() : undefined;
    collectKeys(scope, events, ids, slots, index);
    collectKeys(scope, cancelled, ids, slots, index);

    // Stryker disable next-line UpdateOperator: counting down makes tokens just as unique
    const token = tokenPrefix + String(counter++);
    let granted: readonly boolean[];
    let storeError: BuzzMetaError | undefined;
    try {
      granted = ids.length === 0 ? [] : await store.claim({ scope, ids, token, leaseMs });
      if (granted.length !== ids.length) throw new TypeError('the store answered for a different number of keys');
    } catch (cause) {
      storeError = storeFailure('claim', cause);
      report(storeError);
      if (failClosed) throw storeError;
      // Fail-open: act on everything (at-least-once); commit still records what was handled.
      granted = new Array<boolean>(ids.length).fill(true);
    }

    const fresh: E[] = [];
    const seen: E[] = [];
    const carried: BuzzEvent[] = [];
    let position = 0;
    for (const event of events) {
      if (isGranted(slots, granted, position++)) fresh.push(event);
      else seen.push(event);
    }
    for (const event of cancelled) {
      if (isGranted(slots, granted, position++)) carried.push(event);
    }
    let held = ids;
    // Stryker disable next-line ConditionalExpression,ArithmeticOperator: a shortcut; filtering a fully granted list gives the same keys
    if (fresh.length + carried.length !== ids.length) {
      held = [];
      for (const [slot, id] of ids.entries()) if (granted[slot] === true) held.push(id);
    }
    return new Claim(fresh, seen, carried, storeError, held.length === 0 ? undefined : { scope, ids: held, token });
  }

  /** One claim: settles once, through the deduper's store and policy. */
  class Claim<E extends BuzzEvent> implements BuzzClaim<E> {
    // Declared, not defined: a claim without a store error has no `storeError` key at all.
    declare readonly storeError?: BuzzMetaError;

    constructor(
      readonly fresh: readonly E[],
      readonly seen: readonly E[],
      readonly carried: readonly BuzzEvent[],
      storeError: BuzzMetaError | undefined,
      /** What to settle; `undefined` once settled, or when nothing was claimed. */
      private pending: DedupStoreRequest | undefined,
    ) {
      if (storeError !== undefined) this.storeError = storeError;
    }

    commit(): Promise<void> {
      const request = this.pending;
      if (request === undefined) return settledPromise;
      this.pending = undefined;
      try {
        return store
          .commit({ scope: request.scope, ids: request.ids, token: request.token, ttlMs })
          .then(undefined, commitFailed);
      } catch (cause) {
        return failedNow(cause, commitFailed);
      }
    }

    release(): Promise<void> {
      const request = this.pending;
      if (request === undefined) return settledPromise;
      this.pending = undefined;
      try {
        return store.release(request).then(undefined, releaseFailed);
      } catch (cause) {
        return failedNow(cause, releaseFailed);
      }
    }
  }

  return { claim };
}
