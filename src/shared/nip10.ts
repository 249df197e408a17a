/**
 * NIP-10 marked `e` tags: `["e", <event id>, <relay>, "root" | "reply" | …]`, read exactly as
 * buzz-acp's `thread_anchors` reads them (crates/buzz-acp/src/buzz_envelope.rs, commit 97e1444).
 * One reading shared by the host builder (which derives `reply`) and the thread key (which
 * follows it), so the two can never disagree about which thread an event is in.
 */

import type { Result } from '../errors.js';

/** The thread anchors an event's tags name, lowercased; either may be missing. */
interface MarkedAnchors {
  /** The last `root`-marked `e` tag's id. */
  readonly root: string | undefined;
  /** The last `reply`-marked `e` tag's id. */
  readonly parent: string | undefined;
}

/** Why the tags name no thread: upstream refuses the whole event for either reason. */
interface AmbiguousAnchor {
  /** Index of the offending tag. */
  readonly tagIndex: number;
  /** What is wrong with it, in a sentence (never echoing the tag). */
  readonly message: string;
}

/** 64 hex digits in either case: upstream lowercases an anchor id (ASCII only), then checks it. */
const ANCHOR_ID = /^[0-9a-f]{64}$/i;

/**
 * Reads the thread anchors of an event's tags as upstream's `thread_anchors` does: every `e` tag
 * must have a marker slot (at least 4 values) and a 64-hex id, or the event is refused; the
 * **last** `root` and the **last** `reply` win; ids are lowercased; other markers (`mention`,
 * `""`) are checked but route nothing.
 */
export function markedAnchors(tags: readonly (readonly string[])[]): Result<MarkedAnchors, AmbiguousAnchor> {
  let root: string | undefined;
  let parent: string | undefined;
  for (const [tagIndex, tag] of tags.entries()) {
    if (tag[0] !== 'e') continue;
    if (tag.length < 4) {
      return {
        ok: false,
        error: {
          tagIndex,
          message:
            'an e tag without a NIP-10 marker (fewer than 4 values) makes the thread anchor ambiguous; buzz-acp refuses the event',
        },
      };
    }
    const id = tag[1];
    if (typeof id !== 'string' || !ANCHOR_ID.test(id)) {
      return {
        ok: false,
        error: { tagIndex, message: 'an e tag’s event id is not 64 hex digits; buzz-acp refuses the event' },
      };
    }
    if (tag[3] === 'root') root = id.toLowerCase();
    else if (tag[3] === 'reply') parent = id.toLowerCase();
  }
  return { ok: true, value: { root, parent } };
}
