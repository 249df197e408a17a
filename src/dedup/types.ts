/**
 * The public shape of event-id dedup (issue 9): what a `Deduper` hands back for one delivery.
 * Types only; the deduper and its stores live beside this file.
 */
import type { BuzzContext, BuzzEvent } from '../context.js';

/**
 * One claim on the events of a delivery. `fresh` and `seen` partition `context.events`, order
 * kept. Settle it once: `commit()` after the turn finished, `release()` after a cancel or a
 * failure; later calls are no-ops.
 */
export interface BuzzClaim<E extends BuzzEvent = BuzzEvent> {
  /** Events nobody handled or holds: this turn should act on them. */
  readonly fresh: readonly E[];
  /** Events already handled, or in flight elsewhere: do not act on them again. */
  readonly seen: readonly E[];
  /** Marks the fresh events handled (for the deduper's `ttlMs`). */
  commit(): Promise<void>;
  /** Makes the fresh events claimable again at once. */
  release(): Promise<void>;
}

/** Claims the events of a context so that each is handled once, across one process or a pool. */
export interface Deduper {
  /** Claims every event of `context` that is neither handled nor in flight. */
  claim<C extends BuzzContext>(context: C): Promise<BuzzClaim<C['events'][number]>>;
}
