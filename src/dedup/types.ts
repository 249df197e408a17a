/**
 * The public shape of event-id dedup: what a `Deduper` hands back for one delivery, and
 * the store interface behind it (memory, Redis, or one a user brings). Types only.
 */
import type { BuzzContext, BuzzEvent } from '../context.js';
import type { BuzzMetaError } from '../errors.js';

/**
 * One claim on the events of a delivery. `fresh` and `seen` partition `context.events`, order
 * kept; `seen` is split into `handled` and `held` (in flight in another claim, which may still
 * fail). Settle it once: `commit()` after the turn finished, `release()` after a cancel or a
 * failure; later calls are no-ops.
 *
 * @example
 * ```ts
 * import { createDeduper, type BuzzClaim } from 'buzz-meta'
 *
 * const claim: BuzzClaim = await createDeduper().claim(context)
 * if (claim.storeError !== undefined) console.error(`dedup bypassed: ${claim.storeError.code}`) // fail-open
 * for (const event of claim.fresh) await handle(event)
 * await claim.commit()
 * ```
 * @group Dedup
 */
export interface BuzzClaim<E extends BuzzEvent = BuzzEvent> {
  /** Events nobody handled or holds: this turn should act on them. */
  readonly fresh: readonly E[];
  /** Events already handled, or in flight elsewhere: do not act on them again. */
  readonly seen: readonly E[];
  /**
   * The events of `seen` that a claim committed: done. `createDeduper` always sets it (optional
   * so that other `Deduper` implementations need not).
   */
  readonly handled?: readonly E[];
  /**
   * The events of `seen` leased by another claim that has not settled: nobody has handled them
   * yet, and if that claim fails they are free again. Answer such a delivery only once they are
   * handled, or with an error the host retries (see docs/dedup.md, "Handled or held").
   */
  readonly held?: readonly E[];
  /**
   * Cancelled events of a merge (`context.cancelledEvents`) leased by another claim that has not
   * settled; like `held`, not handled yet.
   */
  readonly heldCancelled?: readonly BuzzEvent[];
  /**
   * Cancelled events of a Steer/Interrupt merge (`context.cancelledEvents`) that this claim took
   * over because nobody held or had handled them (the cancelled turn released them): they are
   * committed or released together with `fresh`. Empty for ordinary deliveries; `createDeduper`
   * always sets it (optional so that other `Deduper` implementations need not).
   */
  readonly carried?: readonly BuzzEvent[];
  /**
   * Set when the store failed under `onStoreError: 'fail-open'`: every event is then `fresh`
   * (at-least-once), and this says why. Absent when the store answered.
   */
  readonly storeError?: BuzzMetaError;
  /** Marks the fresh events handled (for the deduper's `ttlMs`). */
  commit(): Promise<void>;
  /** Makes the fresh events claimable again at once. */
  release(): Promise<void>;
}

/**
 * Options of one {@link Deduper.claim}.
 *
 * @example
 * ```ts
 * import { createDeduper, type ClaimOptions } from 'buzz-meta'
 *
 * // Two agents sharing one store: each claims in its own namespace, so neither suppresses the other.
 * const options: ClaimOptions = { namespace: 'summarizer' }
 * const claim = await createDeduper().claim(context, options)
 * ```
 * @group Dedup
 */
export interface ClaimOptions {
  /**
   * Keeps these keys apart from every other namespace's in a shared store, e.g. the agent's hex
   * pubkey, so two agents on one Redis never suppress each other's events (`buzz-meta/acp` passes
   * the reader's pinned key). Non-empty, without `{`, `}` or `/`; default none.
   */
  readonly namespace?: string;
}

/**
 * Claims the events of a context so that each is handled once, across one process or a pool.
 *
 * @example
 * ```ts
 * import { createDeduper, type Deduper } from 'buzz-meta'
 *
 * const deduper: Deduper = createDeduper() // one per process, shared by every session
 * const claim = await deduper.claim(context)
 * ```
 * @group Dedup
 */
export interface Deduper {
  /** Claims every event of `context` that is neither handled nor in flight. */
  claim<C extends BuzzContext>(context: C, options?: ClaimOptions): Promise<BuzzClaim<C['events'][number]>>;
}

/**
 * What the deduper asks of a store for one claim, commit or release: the dedup keys of one
 * channel's events and the claim's token. A store keeps, per `(scope, id)`, either nothing, an
 * in-flight lease (the token of the claim holding it, expiring after `leaseMs`) or a handled mark
 * (expiring after `ttlMs`).
 *
 * @example
 * ```ts
 * import { createMemoryStore, type DedupStoreRequest } from 'buzz-meta'
 *
 * const store = createMemoryStore()
 * const request: DedupStoreRequest = { scope: channelId, ids: [id], token: 'claim-1' }
 * await store.release(request) // drops claim-1's lease on the key, if it holds one
 * ```
 * @group Dedup
 */
export interface DedupStoreRequest {
  /**
   * The channel id the keys belong to, prefixed `<namespace>/` when the claim has a namespace;
   * every key of one request shares it (one Redis hash slot).
   */
  readonly scope: string;
  /** Dedup keys of the events (see docs/dedup.md, "Keys"), distinct, at least one. */
  readonly ids: readonly string[];
  /** Unique per claim: only the claim holding a lease may commit or release it. */
  readonly token: string;
}

/**
 * A {@link DedupStoreRequest} to claim keys for `leaseMs`.
 *
 * @example
 * ```ts
 * import { createMemoryStore, type DedupClaimRequest } from 'buzz-meta'
 *
 * const store = createMemoryStore()
 * const request: DedupClaimRequest = { scope: channelId, ids: [id], token: 'claim-1', leaseMs: 60_000 }
 * const [answer] = await store.claim(request) // true: the key is now leased to claim-1
 * ```
 * @group Dedup
 */
export interface DedupClaimRequest extends DedupStoreRequest {
  /** How long an unsettled lease lasts, in ms (a positive integer). */
  readonly leaseMs: number;
}

/**
 * A {@link DedupStoreRequest} to mark keys handled for `ttlMs`.
 *
 * @example
 * ```ts
 * import { createMemoryStore, type DedupCommitRequest } from 'buzz-meta'
 *
 * const store = createMemoryStore()
 * await store.claim({ scope: channelId, ids: [id], token: 'claim-1', leaseMs: 60_000 })
 * const request: DedupCommitRequest = { scope: channelId, ids: [id], token: 'claim-1', ttlMs: 86_400_000 }
 * await store.commit(request) // handled for a day
 * ```
 * @group Dedup
 */
export interface DedupCommitRequest extends DedupStoreRequest {
  /** How long a handled mark lasts, in ms (a positive integer). */
  readonly ttlMs: number;
}

/**
 * What a store answers for one key of a claim: `true` when it was free and is now leased to the
 * claim; `'held'` when another claim's live lease holds it; `'handled'` when it holds a live
 * handled mark; `false` for either of the two, from a store that does not tell them apart (the
 * deduper then counts the key as handled, as before the split).
 *
 * @example
 * ```ts
 * import { createMemoryStore, type DedupClaimAnswer } from 'buzz-meta'
 *
 * const store = createMemoryStore()
 * const request = { scope: channelId, ids: [id], token: 'claim-1', leaseMs: 1_000 }
 * const answers: readonly DedupClaimAnswer[] = await store.claim(request)
 * const fresh = answers.map((answer) => answer === true) // 'held': another claim's lease; 'handled': done
 * ```
 * @group Dedup
 */
export type DedupClaimAnswer = boolean | 'held' | 'handled';

/**
 * Where a deduper keeps its memory. Each call is atomic over all of its keys (one round trip for
 * a remote store). Implement it to bring your own engine; `createMemoryStore` and
 * `buzz-meta/redis`'s `createRedisStore` are the two that ship.
 *
 * @example
 * ```ts
 * import { createDeduper, createMemoryStore, type DedupStore } from 'buzz-meta'
 *
 * // A store of your own: claim, commit and release, each atomic over its keys. This one wraps another.
 * const inner = createMemoryStore()
 * const store: DedupStore = {
 *   claim: (request) => inner.claim(request),
 *   commit: (request) => inner.commit(request),
 *   release: (request) => inner.release(request),
 * }
 * const deduper = createDeduper({ store })
 * ```
 * @group Dedup
 */
export interface DedupStore {
  /**
   * For each id, in order: `true` (and a lease under `token` for `leaseMs`) when the key held
   * nothing, `'held'` when it holds a live lease, `'handled'` when it holds a handled mark (see
   * {@link DedupClaimAnswer}).
   */
  claim(request: DedupClaimRequest): Promise<readonly DedupClaimAnswer[]>;
  /**
   * Marks each id handled for `ttlMs` where it holds this `token`'s lease or nothing; leaves a
   * key held by another claim, or already handled, as it is.
   */
  commit(request: DedupCommitRequest): Promise<void>;
  /** Drops each id's lease where it holds this `token`'s lease; leaves every other key as it is. */
  release(request: DedupStoreRequest): Promise<void>;
}
