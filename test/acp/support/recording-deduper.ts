/**
 * The real `createDeduper` (memory store), with every settle of every claim recorded, so tests
 * can assert how the wrapper ended each turn: `commit:<n>` / `release:<n>`, n = fresh events.
 */
import type { BuzzContext } from '../../../src/context.js';
import { createDeduper } from '../../../src/dedup/deduper.js';
import type { BuzzClaim, Deduper } from '../../../src/dedup/types.js';

/** A {@link Deduper} whose settles are visible. */
export interface RecordingDeduper extends Deduper {
  /** Every first settle, in order. */
  readonly settles: string[];
}

/** Variations of a user's own deduper. */
export interface RecordingOptions {
  /** Each claim waits for this first (a slow store). */
  readonly beforeClaim?: () => Promise<void>;
  /** Claims leave `carried` out (it is optional in `BuzzClaim`). */
  readonly withoutCarried?: boolean;
}

/** A real deduper over a fresh memory store, recording settles. */
export function recordingDeduper(options: RecordingOptions = {}): RecordingDeduper {
  const inner = createDeduper();
  const settles: string[] = [];
  return {
    settles,
    async claim<C extends BuzzContext>(context: C): Promise<BuzzClaim<C['events'][number]>> {
      await options.beforeClaim?.();
      const claim = await inner.claim(context);
      let settled = false;
      const note = (how: string) => {
        if (!settled) settles.push(`${how}:${String(claim.fresh.length)}`);
        settled = true;
      };
      return {
        fresh: claim.fresh,
        seen: claim.seen,
        ...(options.withoutCarried === true ? {} : { carried: claim.carried ?? [] }),
        commit: () => {
          note('commit');
          return claim.commit();
        },
        release: () => {
          note('release');
          return claim.release();
        },
      };
    },
  };
}
