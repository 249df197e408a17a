/**
 * The keys of a claim and the way back: each event's dedup key in its scope, distinct and in
 * order, and where each event's key sits, so the store's answers sort the events again.
 */
import type { BuzzEvent } from '../context.js';
import { BuzzMetaError } from '../errors.js';
import { dedupKeyOf } from './event-key.js';
import type { BuzzClaim, ClaimOptions, DedupClaimAnswer } from './types.js';

/** Whether `text` can be (part of) a scope: non-empty, and no brace (it becomes a Redis hash tag). */
function isScopePart(text: unknown): text is string {
  return typeof text === 'string' && text !== '' && !text.includes('{') && !text.includes('}');
}

/** The store scope of a claim: the channel id, after the namespace when there is one. */
export function scopeOf(channelId: string, options: ClaimOptions | undefined): string {
  if (!isScopePart(channelId)) {
    throw BuzzMetaError.of(
      'invalid_params',
      '/channelId',
      'a channel id to dedup in must be non-empty, without braces.',
    );
  }
  const namespace = options?.namespace;
  if (namespace === undefined) return channelId;
  if (!isScopePart(namespace) || namespace.includes('/')) {
    throw BuzzMetaError.of('invalid_option', '/namespace', 'a namespace must be non-empty, without braces or /.');
  }
  return `${namespace}/${channelId}`;
}

/**
 * Appends the dedup keys of `events` in `scope` to `ids`, distinct and in order, and to `slots`
 * each event's index in `ids`, or for a repeat (within the delivery) the bitwise NOT of its first
 * copy's index (negative). Small deliveries (the usual case) find repeats by scanning, large ones
 * through `index`. A plain loop, no closure per call: this is the per-claim hot path.
 */
function collectKeys(
  channelId: string,
  events: readonly BuzzEvent[],
  ids: string[],
  slots: number[],
  index: Map<string, number> | undefined,
): void {
  for (const event of events) {
    const key = dedupKeyOf(channelId, event);
    const known = index === undefined ? ids.indexOf(key) : (index.get(key) ?? -1);
    if (known !== -1) {
      slots.push(~known);
      continue;
    }
    index?.set(key, ids.length);
    slots.push(ids.length);
    ids.push(key);
  }
}

/** The distinct dedup keys of a claim, in order, and where each event's key sits (see {@link collectKeys}). */
interface ClaimKeys {
  readonly ids: string[];
  readonly slots: number[];
}

/** The keys of the delivery's events first, then of the cancelled ones it carries. */
export function claimKeys(channelId: string, events: readonly BuzzEvent[], cancelled: readonly BuzzEvent[]): ClaimKeys {
  const ids: string[] = [];
  const slots: number[] = [];
  const index = events.length + cancelled.length > 16 ? new Map<string, number>() : undefined;
  collectKeys(channelId, events, ids, slots, index);
  collectKeys(channelId, cancelled, ids, slots, index);
  return { ids, slots };
}

/** A claim's events by the store's answer about their keys: every list a claim has, each present. */
export type SortedEvents<E extends BuzzEvent> = Required<
  Pick<BuzzClaim<E>, 'fresh' | 'seen' | 'handled' | 'held' | 'carried' | 'heldCancelled'>
>;

/** Sorts the delivery's events and the cancelled ones it carries by the answers about their keys. */
export function sortByAnswer<E extends BuzzEvent>(
  events: readonly E[],
  cancelled: readonly BuzzEvent[],
  slots: readonly number[],
  answers: readonly DedupClaimAnswer[],
): SortedEvents<E> {
  const fresh: E[] = [];
  const seen: E[] = [];
  const handled: E[] = [];
  const held: E[] = [];
  const carried: BuzzEvent[] = [];
  const heldCancelled: BuzzEvent[] = [];
  let position = 0;
  for (const event of events) {
    const slot = slots[position++] ?? 0;
    const answer = answers[slot < 0 ? ~slot : slot];
    if (answer === true && slot >= 0) {
      fresh.push(event);
      continue;
    }
    seen.push(event);
    // A repeat of a fresh event is this claim's own: neither handled nor held elsewhere.
    if (answer === 'held') held.push(event);
    else if (answer !== true) handled.push(event);
  }
  for (const event of cancelled) {
    const slot = slots[position++] ?? 0;
    // A repeat (of a new event, or of a cancelled one) was counted with its first copy.
    if (slot < 0) continue;
    const answer = answers[slot];
    if (answer === true) carried.push(event);
    else if (answer === 'held') heldCancelled.push(event);
  }
  return { fresh, seen, handled, held, carried, heldCancelled };
}

/** The keys the store granted (those of `fresh` and `carried`), which the claim settles. */
export function takenIds(
  ids: string[],
  answers: readonly DedupClaimAnswer[],
  fresh: readonly BuzzEvent[],
  carried: readonly BuzzEvent[],
): string[] {
  if (fresh.length + carried.length === ids.length) return ids;
  const taken: string[] = [];
  for (const [slot, id] of ids.entries()) if (answers[slot] === true) taken.push(id);
  return taken;
}
