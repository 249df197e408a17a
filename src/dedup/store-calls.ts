/**
 * A deduper's options and every call it makes to its store: each under the per-call deadline,
 * commits and releases retried with backoff, failures reported and handled by the policy.
 */
import { BuzzMetaError } from '../errors.js';
import { createDeadline, type Deadline } from './deadline.js';
import { answersAtOnce, createMemoryStore } from './memory-store.js';
import type { DedupStore, DedupStoreRequest } from './types.js';

/**
 * What a deduper does when its store fails; see docs/dedup.md, "Failure policy".
 *
 * @example
 * ```ts
 * import { createDeduper, type StoreErrorPolicy } from 'buzz-meta'
 *
 * // An agent that must never act twice refuses to work while its store is down.
 * const onStoreError: StoreErrorPolicy = process.env.DEDUP_STRICT === '1' ? 'fail-closed' : 'fail-open'
 * const deduper = createDeduper({ onStoreError })
 * ```
 * @group Dedup
 */
export type StoreErrorPolicy = 'fail-open' | 'fail-closed';

/**
 * Options of {@link createDeduper}.
 *
 * @example
 * ```ts
 * import { createDeduper, createMemoryStore, type DeduperOptions } from 'buzz-meta'
 *
 * const options: DeduperOptions = {
 *   store: createMemoryStore(),
 *   ttlMs: 60 * 60_000, // handled for an hour
 *   onStoreError: 'fail-closed',
 *   onError: (error) => console.error(`dedup: ${error.code}`), // never log keys
 * }
 * const deduper = createDeduper(options)
 * ```
 * @group Dedup
 */
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
  /**
   * How long one store call may take, in ms, before the deduper counts it as failed and applies
   * the failure policy, whatever the client does; default 2 000.
   */
  readonly callTimeoutMs?: number;
  /**
   * How often a commit or release is tried before it counts as failed (backoff 50 ms, doubling);
   * default 4. The release that cleans up after a failed claim is tried as often.
   */
  readonly settleAttempts?: number;
}

const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;
const DEFAULT_LEASE_MS = 5 * 60 * 1000;
const DEFAULT_CALL_TIMEOUT_MS = 2_000;
const DEFAULT_SETTLE_ATTEMPTS = 4;
const FIRST_BACKOFF_MS = 50;
const MAX_CLEANUP_BACKOFF_MS = 1_000;

function positive(value: number | undefined, fallback: number, name: string, unit = ' number of ms'): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw BuzzMetaError.of('invalid_option', `/${name}`, `${name} must be a positive integer${unit}.`);
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
export function storeFailure(action: string, cause: unknown): BuzzMetaError {
  const error = BuzzMetaError.of('dedup_store_unavailable', '', `the dedup store failed to ${action}`);
  error.cause = cause;
  return error;
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/** A wait of a background clean-up: unreferenced, so a process may exit meanwhile (the leases lapse then). */
const backgroundSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/** A deduper's store with its settings: every store call, under the deadline and the failure policy. */
export class StoreCalls {
  readonly store: DedupStore;
  readonly ttlMs: number;
  readonly leaseMs: number;
  readonly deadline: Deadline;
  readonly failClosed: boolean;
  readonly #attempts: number;
  readonly #onError: (error: BuzzMetaError) => void;

  /** Validates the options (a bad one throws `invalid_option`), in the order they are documented. */
  constructor(options: DeduperOptions) {
    this.store = options.store ?? createMemoryStore();
    this.ttlMs = positive(options.ttlMs, DEFAULT_TTL_MS, 'ttlMs');
    this.leaseMs = positive(options.leaseMs, DEFAULT_LEASE_MS, 'leaseMs');
    this.deadline = createDeadline(positive(options.callTimeoutMs, DEFAULT_CALL_TIMEOUT_MS, 'callTimeoutMs'));
    this.#attempts = positive(options.settleAttempts, DEFAULT_SETTLE_ATTEMPTS, 'settleAttempts', '');
    this.failClosed = failsClosed(options.onStoreError);
    this.#onError = options.onError ?? ignoreError;
  }

  /** Hands a store failure to `onError`. */
  report(error: BuzzMetaError): void {
    try {
      this.#onError(error);
    } catch {
      // A throwing callback must not turn a reported failure into a lost claim.
    }
  }

  /** One store call under the deadline; a store that throws instead of rejecting rejects too. */
  call<T>(run: () => Promise<T>): Promise<T> {
    let sent: Promise<T>;
    try {
      sent = run();
    } catch (cause) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what the store threw, as it was
      return Promise.reject(cause);
    }
    return this.bound(sent);
  }

  /**
   * `answer` under the deadline, unless an untouched memory store gave it: that answer has settled
   * already, and a settled answer is always read before the deadline's timer can run.
   */
  bound<T>(answer: Promise<T>): Promise<T> {
    return answersAtOnce(this.store) ? answer : this.deadline.bound(answer);
  }

  /**
   * A commit or release, tried up to `settleAttempts` times with backoff (both are idempotent: a
   * retry after a call that did land changes nothing). Then it counts as failed: reported, and
   * under fail-closed rejected.
   */
  async settle(action: string, run: () => Promise<void>): Promise<void> {
    for (let attempt = 1, backoff = FIRST_BACKOFF_MS; ; attempt++, backoff *= 2) {
      try {
        await this.call(run);
        return;
      } catch (cause) {
        if (attempt < this.#attempts) {
          await sleep(backoff);
          continue;
        }
        const error = storeFailure(action, cause);
        this.report(error);
        if (this.failClosed) throw error;
        return;
      }
    }
  }

  /**
   * A settle after a failed claim, in the background: tried until the store answers, with backoff
   * (at most a second apart), for as long as a lease lasts. After that its leases lapsed anyway.
   * It never keeps the process alive: an agent shutting down while its store is down exits.
   */
  async cleanUp(run: () => Promise<void>): Promise<void> {
    const until = performance.now() + this.leaseMs;
    for (let backoff = FIRST_BACKOFF_MS; ; backoff = Math.min(2 * backoff, MAX_CLEANUP_BACKOFF_MS)) {
      try {
        await this.call(run);
        return;
      } catch {
        if (performance.now() + backoff >= until) return;
        await backgroundSleep(backoff);
      }
    }
  }

  /** The store call that commits `request` for `ttlMs`. */
  commit(request: DedupStoreRequest): () => Promise<void> {
    const { scope, ids, token } = request;
    const ttlMs = this.ttlMs;
    return () => this.store.commit({ scope, ids, token, ttlMs });
  }

  /** The store call that releases `request`. */
  release(request: DedupStoreRequest): () => Promise<void> {
    return () => this.store.release(request);
  }
}
