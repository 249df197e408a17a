import type { BuzzEvent } from '../../src/index.js';
import { eventId, type RenderEvent } from './render.js';

/** Identities and channels of the spec's literal examples (shared/spec/prompt-text-formats.md §8). */
export const ALICE = 'c4b997143b7bbd8511f29a9911f880182270e4aaf9f8c3735106461f48681e8a';
export const BOB = '5bf9c3df2a9b627d5b7f366c280b4ddcec19db5f8178e23f4abf47f58ee52a4f';
export const SCOUT = 'e5ae46dbd459f38419f36f546c51a8e8f40f3426f3390f271cc7e770b79bcbcb';
export const ENGINEERING = { id: '3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d', name: 'engineering' } as const;
export const DM = { id: '0b5e2f4a-6c1d-4f3e-9a8b-7c6d5e4f3a2b', name: 'DM' } as const;
/** A time the host renders as 2026-08-29T10:40:00+00:00. */
export const T0 = 1_788_000_000;

/** A kind-9 chat event in #engineering that mentions Scout, at {@link T0} unless `extra` says otherwise. */
export function chat(pubkey: string, content: string, extra: Partial<RenderEvent> = {}): RenderEvent {
  return {
    pubkey,
    created_at: T0,
    kind: 9,
    tags: [
      ['h', ENGINEERING.id],
      ['p', SCOUT],
    ],
    content,
    ...extra,
  };
}

/** What the scraper reads back from a rich (V3+) block of `event`: every field, the label where rendered. */
export function scrapedRich(event: RenderEvent): BuzzEvent {
  return {
    id: eventId(event),
    sender: event.pubkey,
    kind: event.kind,
    createdAt: event.created_at,
    content: event.content,
    tags: event.tags,
    ...(event.label === undefined ? {} : { senderLabel: event.label }),
  };
}
