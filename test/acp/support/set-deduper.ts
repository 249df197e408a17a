/**
 * A deduper for the wrapper's own tests, until `createDeduper` lands on main: claim takes every
 * event id that is neither handled nor held; commit marks them handled; release frees them.
 * It records every settle so tests can assert how the wrapper ended each turn.
 */
import type { BuzzContext } from '../../../src/context.js';
import type { BuzzClaim, Deduper } from '../../../src/dedup/types.js';

/** A {@link Deduper} with its bookkeeping visible. */
export interface SetDeduper extends Deduper {
  /** Every settle, in order: `commit:<n>` or `release:<n>` with the number of fresh events. */
  readonly settles: string[];
}

/** A new in-memory deduper keyed by event id. */
export function setDeduper(): SetDeduper {
  const handled = new Set<string>();
  const held = new Set<string>();
  const settles: string[] = [];
  return {
    settles,
    claim<C extends BuzzContext>(context: C): Promise<BuzzClaim<C['events'][number]>> {
      const fresh: C['events'][number][] = [];
      const seen: C['events'][number][] = [];
      for (const event of context.events) {
        const id = event.id ?? '';
        if (handled.has(id) || held.has(id)) seen.push(event);
        else {
          held.add(id);
          fresh.push(event);
        }
      }
      let settled = false;
      const settle = (how: 'commit' | 'release') => {
        if (settled) return Promise.resolve();
        settled = true;
        settles.push(`${how}:${String(fresh.length)}`);
        for (const event of fresh) {
          held.delete(event.id ?? '');
          if (how === 'commit') handled.add(event.id ?? '');
        }
        return Promise.resolve();
      };
      return Promise.resolve({ fresh, seen, commit: () => settle('commit'), release: () => settle('release') });
    },
  };
}
