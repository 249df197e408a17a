/**
 * Per-call deadlines for store calls, enforced by the deduper itself: a client's own timeout may
 * not cover a command already sent (or may be configured away), and a stalled store must fall
 * under the failure policy within a bound. One shared, unreferenced ticker checks every pending
 * call instead of a timer per call: the claim path stays as cheap as the store allows.
 */

/** The error a call that missed its deadline rejects with (the cause of the store failure). */
export class StoreDeadlineError extends Error {
  override readonly name = 'StoreDeadlineError';
}

interface Pending {
  readonly due: number;
  readonly reject: (error: Error) => void;
}

/** Races store calls against one deadline of `timeoutMs` each. */
export interface Deadline {
  /** `promise`, or a {@link StoreDeadlineError} once `timeoutMs` passed without an answer. */
  bound<T>(promise: Promise<T>): Promise<T>;
}

/**
 * Creates the deadline of one deduper. The ticker runs every eighth of the timeout (at least
 * 5 ms) while calls are pending, so a call fails between `timeoutMs` and `timeoutMs` plus a tick.
 */
export function createDeadline(timeoutMs: number): Deadline {
  const tickMs = Math.max(5, Math.floor(timeoutMs / 8));
  const pending = new Set<Pending>();
  let ticker: ReturnType<typeof setInterval> | undefined;

  function tick(): void {
    if (pending.size === 0) {
      clearInterval(ticker);
      ticker = undefined;
      return;
    }
    const now = performance.now();
    for (const call of pending) {
      if (call.due > now) continue;
      pending.delete(call);
      call.reject(new StoreDeadlineError(`the store did not answer within ${String(timeoutMs)} ms`));
    }
  }

  return {
    bound<T>(promise: Promise<T>): Promise<T> {
      // One promise settled by whichever comes first, the answer or the ticker: no race, no finally.
      return new Promise<T>((resolve, reject) => {
        const call: Pending = { due: performance.now() + timeoutMs, reject };
        pending.add(call);
        if (ticker === undefined) {
          ticker = setInterval(tick, tickMs);
          // A pending store call must not keep the process alive on its own.
          ticker.unref();
        }
        Promise.resolve(promise).then(
          (value) => {
            pending.delete(call);
            resolve(value);
          },
          (error: unknown) => {
            pending.delete(call);
            // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the store's reason, as it was
            reject(error);
          },
        );
      });
    },
  };
}
