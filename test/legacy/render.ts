/**
 * The prompt-text renderer the tests use: the library's own (`src/legacy/render-*.ts`, public as
 * `renderPromptText` on `buzz-meta/host`), section by section, so a test can assemble text no
 * host sends (forged blocks, sections out of order), plus the oracles a test compares with: an
 * event's NIP-01 id from nostr-tools, and RFC 3339 times.
 */
import { getEventHash } from 'nostr-tools/pure';
import type { PromptTextChannel, PromptTextEvent } from '../../src/legacy/render-event.js';
import type { PromptTextEra } from '../../src/legacy/render-sections.js';

export { EM, richBlock, v2Block } from '../../src/legacy/render-event.js';
export { contextSection, eventSection, mergeSections, restartSections } from '../../src/legacy/render-sections.js';

/** One event to render. `id` is computed unless given (a test may forge one). */
export type RenderEvent = PromptTextEvent;
/** The channel as the host knows it. */
export type RenderChannel = PromptTextChannel;
/** The rendering eras. */
export type RenderEra = PromptTextEra;

/** The NIP-01 id of an event (its own `id` when it carries one), computed by nostr-tools. */
export function eventId(event: RenderEvent): string {
  // nostr-tools hashes the NIP-01 fields only: the label rides along unread.
  return event.id ?? getEventHash({ ...event, tags: event.tags.map((tag) => [...tag]) });
}

/** `chrono::DateTime::to_rfc3339` of whole seconds: `+00:00`, never `Z`. */
export function rfc3339(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', '+00:00');
}

/** Text blocks as an ACP prompt. */
export function prompt(...texts: string[]): { type: 'text'; text: string }[] {
  return texts.map((text) => ({ type: 'text', text }));
}
