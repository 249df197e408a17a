/**
 * The claim of one turn, waiting (bounded) for events held elsewhere: a redelivery of events that
 * another turn is still working on must not be answered as done, because that turn may fail or
 * its worker may be dead. While the wait lasts, the held events are claimed again with backoff;
 * the ones their holder released become this turn's, the ones it committed are handled. What is
 * still held at the end is the caller's to answer with an error the host retries.
 */
import type { BuzzContext, BuzzEvent } from '../context.js';
import type { BuzzClaim, ClaimOptions, Deduper } from '../dedup/types.js';
import type { BuzzMetaError } from '../errors.js';

/** The first pause between two claims of held events, in ms (doubling). */
const FIRST_POLL_MS = 25;

/** A turn's claim, possibly made of several store claims, settled together. */
interface TurnClaim<E extends BuzzEvent> {
  /** Events of `context.events` this turn claimed, in order. */
  readonly fresh: readonly E[];
  /** The other events of `context.events`, in order. */
  readonly seen: readonly E[];
  /** Cancelled events this turn took over. */
  readonly carried: readonly BuzzEvent[];
  /** How many events (new or cancelled) another claim still held when the wait ended. */
  readonly held: number;
  /** The first store failure a claim let through under fail-open (its events then counted fresh), if any. */
  readonly storeError: BuzzMetaError | undefined;
  /** Settles every store claim made. */
  readonly claim: BuzzClaim;
}

/** Whether `signal` is aborted now: a call, so that no narrowing from before an await is trusted. */
function abortedNow(signal: AbortSignal): boolean {
  return signal.aborted;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** One claim over several: the same answers, both settles reach every part. */
function combined(parts: readonly BuzzClaim[], fresh: readonly BuzzEvent[], seen: readonly BuzzEvent[]): BuzzClaim {
  const each = (settle: (claim: BuzzClaim) => Promise<void>) => async () => {
    const results = await Promise.allSettled(parts.map(settle));
    for (const result of results) if (result.status === 'rejected') throw result.reason;
  };
  return { fresh, seen, commit: each((c) => c.commit()), release: each((c) => c.release()) };
}

/**
 * Claims `context`'s events; while some are held by another claim, and for at most `waitMs`
 * (never past `signal`), claims those again. A deduper whose claims say nothing of `held`
 * (another implementation) is taken at its word: its `seen` events are handled.
 */
export async function claimTurn<C extends BuzzContext>(
  deduper: Deduper,
  context: C,
  options: { readonly claim: ClaimOptions; readonly waitMs: number; readonly signal: AbortSignal },
): Promise<TurnClaim<C['events'][number]>> {
  type E = C['events'][number];
  const { signal, waitMs } = options;
  const first = await deduper.claim(context, options.claim);
  const parts: BuzzClaim[] = [first];
  const taken = new Set<BuzzEvent>(first.fresh);
  const carried: BuzzEvent[] = [...(first.carried ?? [])];
  let held: readonly E[] = first.held ?? [];
  let heldCancelled: readonly BuzzEvent[] = first.heldCancelled ?? [];
  let storeError = first.storeError;
  const until = performance.now() + waitMs;
  try {
    for (let poll = FIRST_POLL_MS; held.length + heldCancelled.length > 0 && !signal.aborted; poll *= 2) {
      const left = until - performance.now();
      if (left <= 0) break;
      await pause(Math.min(poll, left), signal);
      if (abortedNow(signal)) break;
      // Our own context object, narrowed to what is still held: its events are the same objects.
      const again = await deduper.claim({ ...context, events: held, cancelledEvents: heldCancelled }, options.claim);
      parts.push(again);
      for (const event of again.fresh) taken.add(event);
      carried.push(...(again.carried ?? []));
      held = again.held ?? [];
      heldCancelled = again.heldCancelled ?? [];
      storeError ??= again.storeError;
    }
  } catch (error) {
    // A claim again that failed (fail-closed): nothing of this turn stays leased.
    await combined(parts, [], []).release();
    throw error;
  }
  const stillHeld = held.length + heldCancelled.length;
  if (parts.length === 1) {
    return { fresh: first.fresh, seen: first.seen, carried, held: stillHeld, storeError, claim: first };
  }
  const fresh = context.events.filter((event) => taken.has(event));
  const seen = context.events.filter((event) => !taken.has(event));
  return { fresh, seen, carried, held: stillHeld, storeError, claim: combined(parts, fresh, seen) };
}
