/**
 * Contexts for dedup tests, built directly (the deduper reads only `channelId`, `events` and
 * `cancelledEvents`), with event ids that are easy to tell apart.
 *
 * @packageDocumentation
 */
import type { BuzzDraftContext, BuzzEvent, BuzzIdentifiedEvent, BuzzScrapedContext } from '../../src/context.js';

export const CHANNEL = '5f0c3e59-8a5d-4c4f-9d2c-0a1b2c3d4e5f';
export const OTHER_CHANNEL = '0e9d8c7b-6a59-4837-a261-5f4e3d2c1b0a';
export const SENDER = '7ff0923d96f65f99e8c3b31bf25f3ba6c857acee433e7860c19b0e317b77757c';

/** The 64-hex id of test event `n` (distinct for distinct `n`). */
export function eventId(n: number): string {
  return `e${n.toString(16).padStart(63, '0')}`;
}

/** A chat event with id {@link eventId}(n). */
export function event(n: number, content = `message ${String(n)}`): BuzzIdentifiedEvent {
  return { id: eventId(n), sender: SENDER, kind: 9, createdAt: 1_700_000_000 + n, content };
}

/** A draft (asserted) context of `events`, optionally merging `cancelled` ones (Steer/Interrupt). */
export function delivery(
  events: readonly BuzzIdentifiedEvent[],
  cancelled: readonly BuzzIdentifiedEvent[] = [],
  channelId = CHANNEL,
): BuzzDraftContext {
  return {
    source: 'meta-draft',
    trust: 'asserted',
    channelId,
    channelType: 'channel',
    events,
    cancelledEvents: cancelled,
    diagnostics: [],
  };
}

/** A scraped context of `events` (ids may be null, as in the oldest text eras). */
export function scraped(events: readonly BuzzEvent[], channelId = CHANNEL): BuzzScrapedContext {
  return {
    source: 'prompt-text',
    trust: 'scraped',
    channelId,
    channelType: 'unknown',
    events,
    cancelledEvents: [],
    diagnostics: [],
  };
}

/** The event ids of `events`, for exact comparisons (`carried` is optional in the type; ours always sets it). */
export function ids(events: readonly BuzzEvent[] | undefined): (string | null)[] {
  if (events === undefined) throw new Error('no event list');
  return events.map((e) => e.id);
}
