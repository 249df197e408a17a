/**
 * A memory store whose next claim can be held until the test lets it go: a claim in flight on a
 * slow store, for the race tests (in process, and in the stdio race agent's child process).
 *
 * @packageDocumentation
 */
import { createMemoryStore } from '../../../src/dedup/memory-store.js';
import type { DedupStore } from '../../../src/dedup/types.js';

/** A held claim: `entered` resolves when it reaches the store; `open()` lets it through. */
export interface HeldClaim {
  readonly entered: Promise<void>;
  open(): void;
}

/** A memory store and a way to hold its next claim. */
export function gatedStore(): { store: DedupStore; holdNext(): HeldClaim } {
  const inner = createMemoryStore();
  let gate: Promise<void> | undefined;
  let open = (): void => undefined;
  let entered = (): void => undefined;
  const store: DedupStore = {
    claim: async (request) => {
      const waiting = gate;
      gate = undefined;
      if (waiting !== undefined) {
        entered();
        await waiting;
      }
      return inner.claim(request);
    },
    commit: (request) => inner.commit(request),
    release: (request) => inner.release(request),
  };
  return {
    store,
    holdNext(): HeldClaim {
      gate = new Promise<void>((resolve) => (open = resolve));
      const reached = new Promise<void>((resolve) => (entered = resolve));
      return {
        entered: reached,
        open: () => {
          open();
        },
      };
    },
  };
}
