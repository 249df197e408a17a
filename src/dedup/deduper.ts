/**
 * `createDeduper`: claim → commit/release over a `DedupStore`. At-least-once delivery in,
 * effectively-once handling out. The lease/TTL model and failure policy: docs/dedup.md.
 */
import type { BuzzContext, BuzzEvent } from '../context.js';
import { nodeCrypto } from '../shared/deferred.js';
import type { BuzzMetaError } from '../errors.js';
import { Claim } from './claim.js';
import { claimKeys, scopeOf, sortByAnswer, takenIds } from './claim-keys.js';
import { StoreDeadlineError } from './deadline.js';
import { type DeduperOptions, StoreCalls, storeFailure } from './store-calls.js';
import type { BuzzClaim, ClaimOptions, DedupClaimAnswer, Deduper, DedupClaimRequest } from './types.js';

export type { DeduperOptions, StoreErrorPolicy } from './store-calls.js';

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
 * @group Dedup
 */
export function createDeduper(options: DeduperOptions = {}): Deduper {
  const calls = new StoreCalls(options);
  // Tokens: unique per deduper (random) and per claim (counter), cheap to make.
  const tokenPrefix = `t${nodeCrypto().randomUUID()}:`;
  let counter = 0;
  const nextToken = (): string => tokenPrefix + String(counter++);
  return {
    claim: (context, claimOptions) => claimEvents(calls, context, claimOptions, nextToken),
  };
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
  const request: DedupClaimRequest = { scope, ids, token, leaseMs: calls.leaseMs };
  // The store asked here, not in a helper of its own: one async step less per claim.
  let sent: Promise<readonly DedupClaimAnswer[]> | undefined;
  let answers: readonly DedupClaimAnswer[];
  let failed: FailedClaim | undefined;
  try {
    answers = ids.length === 0 ? [] : await calls.bound((sent = calls.store.claim(request)));
    if (answers.length !== ids.length) throw new TypeError('the store answered for a different number of keys');
  } catch (cause) {
    failed = failedClaim(calls, request, cause, cause instanceof StoreDeadlineError ? sent : undefined);
    answers = failed.answers;
  }
  const storeError = failed?.storeError;
  const late = failed?.late;
  const sorted = sortByAnswer(events, cancelled, slots, answers);
  const taken = takenIds(ids, answers, sorted.fresh, sorted.carried);
  const pending = taken.length === 0 ? undefined : { scope, ids: taken, token };
  const claim = new Claim(calls, sorted, storeError, pending);
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

/** What a failed claim goes on with under fail-open: every key granted, the failure, and the late claim. */
interface FailedClaim {
  readonly answers: readonly DedupClaimAnswer[];
  readonly storeError: BuzzMetaError;
  /** The store's own promise of a claim that missed its deadline: the claim may still land. */
  readonly late: Promise<unknown> | undefined;
}

/**
 * A claim the store failed (`cause`; `late`, its promise when it missed the deadline): reported;
 * under fail-closed it throws (after releasing what it may have leased), under fail-open every key
 * counts as granted.
 */
function failedClaim(
  calls: StoreCalls,
  request: DedupClaimRequest,
  cause: unknown,
  late: Promise<unknown> | undefined,
): FailedClaim {
  const { ids } = request;
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
