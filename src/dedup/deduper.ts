/**
 * `createDeduper`: claim → commit/release over a {@link DedupStore}. At-least-once delivery in,
 * effectively-once handling out. The lease/TTL model and failure policy: docs/dedup.md.
 */
import type { BuzzContext, BuzzEvent } from '../context.js';
import { nodeCrypto } from '../shared/deferred.js';
import { BuzzMetaError } from '../errors.js';
import { dedupKeyOf } from './event-key.js';
import { createMemoryStore } from './memory-store.js';
import { createDeadline, type Deadline, StoreDeadlineError } from './deadline.js';
import type {
  BuzzClaim,
  ClaimOptions,
  DedupClaimAnswer,
  DedupClaimRequest,
  Deduper,
  DedupStore,
  DedupStoreRequest,
} from './types.js';

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
const settledPromise: Promise<void> = Promise.resolve();

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
function storeFailure(action: string, cause: unknown): BuzzMetaError {
  const error = BuzzMetaError.of('dedup_store_unavailable', '', `the dedup store failed to ${action}`);
  error.cause = cause;
  return error;
}

/** Whether `text` can be (part of) a scope: non-empty, and no brace (it becomes a Redis hash tag). */
function isScopePart(text: unknown): text is string {
  return typeof text === 'string' && text !== '' && !text.includes('{') && !text.includes('}');
}

/** The store scope of a claim: the channel id, after the namespace when there is one. */
function scopeOf(channelId: string, options: ClaimOptions | undefined): string {
  if (!isScopePart(channelId)) {
    throw BuzzMetaError.of(
      'invalid_params',
      '/channelId',
      'a channel id to dedup in must be non-empty, without braces.',
    );
  }
  const namespace = options?.namespace;
  if (namespace === undefined) return channelId;
  if (!isScopePart(namespace) || namespace.includes('/')) {
    throw BuzzMetaError.of('invalid_option', '/namespace', 'a namespace must be non-empty, without braces or /.');
  }
  return `${namespace}/${channelId}`;
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

/**
 * Appends the dedup keys of `events` in `scope` to `ids`, distinct and in order, and to `slots`
 * each event's index in `ids`, or for a repeat (within the delivery) the bitwise NOT of its first
 * copy's index (negative). Small deliveries (the usual case) find repeats by scanning, large ones
 * through `index`. A plain loop, no closure per call: this is the per-claim hot path.
 */
function collectKeys(
  channelId: string,
  events: readonly BuzzEvent[],
  ids: string[],
  slots: number[],
  index: Map<string, number> | undefined,
): void {
  for (const event of events) {
    const key = dedupKeyOf(channelId, event);
    const known = index === undefined ? ids.indexOf(key) : (index.get(key) ?? -1);
    if (known !== -1) {
      slots.push(~known);
      continue;
    }
    index?.set(key, ids.length);
    slots.push(ids.length);
    ids.push(key);
  }
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
  const calls = new StoreCalls(options);
  // Tokens: unique per deduper (random) and per claim (counter), cheap to make.
  const tokenPrefix = `t${nodeCrypto().randomUUID()}:`;
  let counter = 0;
  const nextToken = (): string => tokenPrefix + String(counter++);
  return {
    claim: async (context, claimOptions) => claimEvents(calls, context, claimOptions, nextToken),
  };
}

/** A deduper's store with its settings: every store call, under the deadline and the failure policy. */
class StoreCalls {
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
  async call<T>(run: () => Promise<T>): Promise<T> {
    return this.deadline.bound(run());
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
    return () => this.store.commit({ ...request, ttlMs: this.ttlMs });
  }

  /** The store call that releases `request`. */
  release(request: DedupStoreRequest): () => Promise<void> {
    return () => this.store.release(request);
  }
}

/** The distinct dedup keys of a claim, in order, and where each event's key sits (see {@link collectKeys}). */
interface ClaimKeys {
  readonly ids: string[];
  readonly slots: number[];
}

/** The keys of the delivery's events first, then of the cancelled ones it carries. */
function claimKeys(channelId: string, events: readonly BuzzEvent[], cancelled: readonly BuzzEvent[]): ClaimKeys {
  const ids: string[] = [];
  const slots: number[] = [];
  const index = events.length + cancelled.length > 16 ? new Map<string, number>() : undefined;
  collectKeys(channelId, events, ids, slots, index);
  collectKeys(channelId, cancelled, ids, slots, index);
  return { ids, slots };
}

/** `claim`: the keys, the store's answers, the events sorted by answer, and the claim to settle. */
async function claimEvents<C extends BuzzContext>(
  calls: StoreCalls,
  context: C,
  claimOptions: ClaimOptions | undefined,
  nextToken: () => string,
): Promise<BuzzClaim<C['events'][number]>> {
  const channelId = context.channelId;
  const scope = scopeOf(channelId, claimOptions);
  const events: readonly C['events'][number][] = context.events;
  const cancelled: readonly BuzzEvent[] = context.cancelledEvents;
  const { ids, slots } = claimKeys(channelId, events, cancelled);
  const token = nextToken();
  const { answers, storeError, late } = await askStore(calls, { scope, ids, token, leaseMs: calls.leaseMs });
  const { fresh, seen, handled, held, carried, heldCancelled } = sortByAnswer(events, cancelled, slots, answers);
  const taken = takenIds(ids, answers, fresh, carried);
  const pending = taken.length === 0 ? undefined : { scope, ids: taken, token };
  const claim = new Claim(calls, fresh, seen, handled, held, carried, heldCancelled, storeError, pending);
  // A timed-out claim landing after its turn settled leaves leases of this token: settle them the same way.
  late?.then(
    () => {
      claim.settleAgain();
    },
    () => {
      claim.settleAgain();
    },
  );
  return claim;
}

/** What the store said about each key of a claim, and how it failed, if it did. */
interface StoreAnswers {
  readonly answers: readonly DedupClaimAnswer[];
  readonly storeError?: BuzzMetaError | undefined;
  /** The store's own promise of a claim that missed its deadline: the claim may still land. */
  readonly late?: Promise<unknown> | undefined;
}

/**
 * Asks the store to claim `request.ids`. A failed claim is reported; under fail-closed it rejects
 * (after releasing what it may have leased), under fail-open every key counts as granted.
 */
async function askStore(calls: StoreCalls, request: DedupClaimRequest): Promise<StoreAnswers> {
  const { ids } = request;
  let late: Promise<unknown> | undefined;
  try {
    let sent: Promise<readonly DedupClaimAnswer[]> | undefined;
    let answers: readonly DedupClaimAnswer[];
    try {
      if (ids.length === 0) answers = [];
      else answers = await calls.deadline.bound((sent = calls.store.claim(request)));
    } catch (cause) {
      if (cause instanceof StoreDeadlineError) late = sent;
      throw cause;
    }
    if (answers.length !== ids.length) throw new TypeError('the store answered for a different number of keys');
    return { answers };
  } catch (cause) {
    const storeError = storeFailure('claim', cause);
    calls.report(storeError);
    if (calls.failClosed) {
      // Nobody will settle what this claim may have leased: release this token's keys now, and
      // again once a claim that timed out has landed after all, so nobody waits for its leases.
      const unlease = calls.release({ scope: request.scope, ids, token: request.token });
      const release = () => void calls.cleanUp(unlease);
      release();
      late?.then(release, release);
      throw storeError;
    }
    // Fail-open: act on everything (at-least-once); commit still records what was handled.
    return { answers: new Array<DedupClaimAnswer>(ids.length).fill(true), storeError, late };
  }
}

/** A claim's events by the store's answer about their keys. */
interface SortedEvents<E extends BuzzEvent> {
  readonly fresh: readonly E[];
  readonly seen: readonly E[];
  readonly handled: readonly E[];
  readonly held: readonly E[];
  readonly carried: readonly BuzzEvent[];
  readonly heldCancelled: readonly BuzzEvent[];
}

/** Sorts the delivery's events and the cancelled ones it carries by the answers about their keys. */
function sortByAnswer<E extends BuzzEvent>(
  events: readonly E[],
  cancelled: readonly BuzzEvent[],
  slots: readonly number[],
  answers: readonly DedupClaimAnswer[],
): SortedEvents<E> {
  const fresh: E[] = [];
  const seen: E[] = [];
  const handled: E[] = [];
  const held: E[] = [];
  const carried: BuzzEvent[] = [];
  const heldCancelled: BuzzEvent[] = [];
  let position = 0;
  for (const event of events) {
    const slot = slots[position++] ?? 0;
    const answer = answers[slot < 0 ? ~slot : slot];
    if (answer === true && slot >= 0) {
      fresh.push(event);
      continue;
    }
    seen.push(event);
    // A repeat of a fresh event is this claim's own: neither handled nor held elsewhere.
    if (answer === 'held') held.push(event);
    else if (answer !== true) handled.push(event);
  }
  for (const event of cancelled) {
    const slot = slots[position++] ?? 0;
    // A repeat (of a new event, or of a cancelled one) was counted with its first copy.
    if (slot < 0) continue;
    const answer = answers[slot];
    if (answer === true) carried.push(event);
    else if (answer === 'held') heldCancelled.push(event);
  }
  return { fresh, seen, handled, held, carried, heldCancelled };
}

/** The keys the store granted (those of `fresh` and `carried`), which the claim settles. */
function takenIds(
  ids: string[],
  answers: readonly DedupClaimAnswer[],
  fresh: readonly BuzzEvent[],
  carried: readonly BuzzEvent[],
): string[] {
  if (fresh.length + carried.length === ids.length) return ids;
  const taken: string[] = [];
  for (const [slot, id] of ids.entries()) if (answers[slot] === true) taken.push(id);
  return taken;
}

/** One claim: settles once, through the deduper's store and policy. */
class Claim<E extends BuzzEvent> implements BuzzClaim<E> {
  // Declared, not defined: a claim without a store error has no `storeError` key at all.
  declare readonly storeError?: BuzzMetaError;
  readonly #calls: StoreCalls;
  /** How the claim was settled: the store call a late-landing claim is settled with again. */
  #settledWith: (() => Promise<void>) | undefined;

  constructor(
    calls: StoreCalls,
    readonly fresh: readonly E[],
    readonly seen: readonly E[],
    readonly handled: readonly E[],
    readonly held: readonly E[],
    readonly carried: readonly BuzzEvent[],
    readonly heldCancelled: readonly BuzzEvent[],
    storeError: BuzzMetaError | undefined,
    /** What to settle; `undefined` once settled, or when nothing was claimed. */
    private pending: DedupStoreRequest | undefined,
  ) {
    this.#calls = calls;
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
