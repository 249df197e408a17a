/**
 * NIP-10 marked `e` tags: `["e", <event id>, <relay>, "root" | "reply"]`. One reading shared by
 * the host builder (which derives `reply`) and the thread key (which follows it), so the two
 * can never disagree about which thread an event is in.
 */

/** The thread anchors an event's tags name; either may be missing. */
export interface MarkedAnchors {
  /** The first `root`-marked `e` tag's id. */
  readonly root: string | undefined;
  /** The first `reply`-marked `e` tag's id. */
  readonly parent: string | undefined;
}

/** Reads the first `root`- and the first `reply`-marked `e` tag. Unmarked `e` tags are ignored. */
export function markedAnchors(tags: readonly (readonly string[])[]): MarkedAnchors {
  let root: string | undefined;
  let parent: string | undefined;
  for (const tag of tags) {
    if (tag[0] !== 'e' || tag[1] === undefined) continue;
    if (tag[3] === 'root') root ??= tag[1];
    else if (tag[3] === 'reply') parent ??= tag[1];
  }
  return { root, parent };
}
