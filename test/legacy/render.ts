/**
 * A test-only renderer of Buzz prompt text for every era, written from the format strings quoted
 * in shared/spec/prompt-text-formats.md (sprout-acp / buzz-acp `format_event_block`,
 * `format_prompt`, `prompt_framing.rs`). Event ids are real NIP-01 hashes, so the scraper's id
 * check sees what it sees on real output. Tests and the text-vector generator use it; the library
 * never does.
 */
import { getEventHash } from 'nostr-tools/pure';
import { toNpub } from '../../src/index.js';

/** One event to render. `id` is computed unless given (a test may forge one). */
export interface RenderEvent {
  readonly pubkey: string;
  readonly created_at: number;
  readonly kind: number;
  readonly tags: string[][];
  readonly content: string;
  readonly label?: string | undefined;
  readonly id?: string;
}

/** The channel as the host knows it. */
export interface RenderChannel {
  readonly id: string;
  /** Rendered as `name (#uuid)` when set; bare UUID otherwise. */
  readonly name?: string;
}

/** The rendering eras. */
export type RenderEra = 'v1' | 'v2' | 'v3' | 'v4' | 'v5';

export const EM = '\u2014';

/** The NIP-01 id of an event. */
export function eventId(event: RenderEvent): string {
  return (
    event.id ??
    getEventHash({
      pubkey: event.pubkey,
      created_at: event.created_at,
      kind: event.kind,
      tags: event.tags,
      content: event.content,
    })
  );
}

/** `chrono::DateTime::to_rfc3339` of whole seconds: `+00:00`, never `Z`. */
export function rfc3339(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', '+00:00');
}

export function channelDisplay(channel: RenderChannel): string {
  return channel.name === undefined ? channel.id : `${channel.name} (#${channel.id})`;
}

function richFrom(event: RenderEvent): string {
  const npub = toNpub(event.pubkey);
  return event.label === undefined
    ? `${npub} (hex: ${event.pubkey})`
    : `${event.label} (npub: ${npub}, hex: ${event.pubkey})`;
}

/** `parse_thread_tags` + the Parsed line (mentions rendered bare: the renderer has no profiles here). */
export function parsedLine(tags: readonly (readonly string[])[]): string | undefined {
  let root: string | undefined;
  let reply: string | undefined;
  const mentions: string[] = [];
  for (const tag of tags) {
    if (tag[0] === 'e' && tag.length >= 4 && tag[3] === 'root') root = tag[1];
    if (tag[0] === 'e' && tag.length >= 4 && tag[3] === 'reply') reply = tag[1];
    if (tag[0] === 'p' && tag.length >= 2) mentions.push(tag[1] ?? '');
  }
  const parts: string[] = [];
  const parent = reply ?? root;
  const threadRoot = root ?? reply;
  if (parent !== undefined) parts.push(`parent=${parent}`);
  if (threadRoot !== undefined) parts.push(`root=${threadRoot}`);
  if (mentions.length > 0) parts.push(`mentions=[${mentions.join(', ')}]`);
  return parts.length === 0 ? undefined : parts.join(', ');
}

/** V3/V4/V5 `format_event_block`. */
export function richBlock(event: RenderEvent, channel: RenderChannel): string {
  let text =
    `Event ID: ${eventId(event)}\nChannel: ${channelDisplay(channel)}\nKind: ${event.kind}\n` +
    `From: ${richFrom(event)}\nTime: ${rfc3339(event.created_at)}\nContent: ${event.content}\n` +
    `Tags: ${JSON.stringify(event.tags)}`;
  const parsed = parsedLine(event.tags);
  if (parsed !== undefined) text += `\nParsed: ${parsed}`;
  return text;
}

/** Kinds a V2 host (commit c85a2226) renders without a Tags line. */
const V2_STREAM_KINDS = new Set([40_001, 40_002]);

/** V2 block: no id, npub only, Tags only for non-stream kinds. */
export function v2Block(event: RenderEvent, channel: RenderChannel): string {
  const text =
    `Channel: ${channel.id}\nKind: ${event.kind}\nFrom: ${toNpub(event.pubkey)}\n` +
    `Time: ${rfc3339(event.created_at)}\nContent: ${event.content}`;
  return V2_STREAM_KINDS.has(event.kind) ? text : `${text}\nTags: ${JSON.stringify(event.tags)}`;
}

/** V1 `format_event_lines`. */
export function v1Lines(event: RenderEvent, channel: RenderChannel): string {
  return `Channel: ${channel.id}\nFrom: ${toNpub(event.pubkey)}\nTime: ${rfc3339(event.created_at)}\nMessage: ${event.content}`;
}

function chunks(events: readonly RenderEvent[], tag: string, block: (event: RenderEvent) => string): string {
  return events.map((event, i) => `\n\n--- Event ${i + 1} (${tag}) ---\n${block(event)}`).join('');
}

/** V5 frame body: the first separator on the line after the opening tag, one blank line between blocks. */
function xmlChunks(events: readonly RenderEvent[], tag: string, block: (event: RenderEvent) => string): string {
  return chunks(events, tag, block).slice(1);
}

/** ` count="N"` on a V5 frame of two or more events. */
function countAttribute(events: readonly RenderEvent[]): string {
  return events.length > 1 ? ` count="${events.length}"` : '';
}

/** The event section of one era: single or batch. */
export function eventSection(
  era: RenderEra,
  events: readonly RenderEvent[],
  channel: RenderChannel,
  tag = '@mention',
): string {
  const n = events.length;
  const [first] = events;
  if (first === undefined) throw new RangeError('a section renders at least one event');
  if (era === 'v1') {
    if (n === 1) return `[Sprout @mention]\n${v1Lines(first, channel)}`;
    return (
      `[Sprout @mention ${EM} ${n} events]\n` +
      events.map((event, i) => `\n--- Event ${i + 1} ---\n${v1Lines(event, channel)}\n`).join('')
    );
  }
  const brand = era === 'v4' ? 'Buzz' : 'Sprout';
  const block = (event: RenderEvent): string => (era === 'v2' ? v2Block(event, channel) : richBlock(event, channel));
  if (era === 'v5') {
    if (n === 1) {
      return `<buzz-event type="${escapeAttribute(tag)}">\n${block(first)}\n</buzz-event>`;
    }
    return `<buzz-events count="${n}">${xmlChunks(events, tag, block)}\n</buzz-events>`;
  }
  if (n === 1) return `[${brand} event: ${tag}]\n${block(first)}`;
  return `[${brand} events ${EM} ${n} events]${chunks(events, tag, block)}`;
}

export function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** The `[Context]` / `<context>` section for a V4/V5 host. */
export function contextSection(
  era: 'v3' | 'v4' | 'v5',
  scope: 'dm' | 'thread' | 'channel',
  channel: RenderChannel,
  anchors: { readonly root?: string; readonly parent?: string; readonly replyTo?: string } = {},
): string {
  const lines = [era === 'v5' ? '<context>' : '[Context]', `Scope: ${scope}`];
  if (era === 'v5') lines.push(`Session scope: ${scope === 'dm' ? 'channel' : scope}`);
  lines.push(`Channel: ${channelDisplay(channel)}`);
  if (anchors.root !== undefined) lines.push(`Thread root: ${anchors.root}`);
  if (anchors.parent !== undefined) lines.push(`Parent: ${anchors.parent}`);
  if (scope === 'channel') lines.push('Hint: Use `buzz messages get --channel <UUID>` for recent messages if needed.');
  if (scope === 'thread') {
    lines.push('Use `buzz messages thread --channel <UUID> --event <ID>` to fetch thread context.');
  }
  if (scope === 'dm') lines.push('Use `buzz messages get --channel <UUID>` for conversation context.');
  if (anchors.replyTo !== undefined) {
    lines.push(
      anchors.root === undefined
        ? `IMPORTANT: This is a new top-level message. For ordinary replies in this turn, use \`--reply-to ${anchors.replyTo}\` on \`buzz messages send\` ${EM} the triggering message is the thread root. Do NOT reply into any other (older) thread. If the human explicitly asks for a channel-root, top-level, or broadcast post, send that message without \`--reply-to\`.`
        : `IMPORTANT: For ordinary replies in this turn, use \`--reply-to ${anchors.replyTo}\` on \`buzz messages send\` so the conversation stays threaded. If the human explicitly asks for a channel-root, top-level, or broadcast post, send that message without \`--reply-to\`. If the requested destination is ambiguous, ask before sending.`,
    );
  }
  if (era === 'v5') lines.push('</context>');
  return lines.join('\n');
}

/** Merge framing of B2+ (bracket) and V5 (XML). */
export type MergeKind = 'steer' | 'interrupt';

const BRACKET_MERGE = {
  steer: {
    prior: '[What you were working on]',
    single: `[New message ${EM} arrived while you were working]`,
    multi: `[New messages ${EM} arrived while you were working`,
    note: "Note: A new message arrived while you were working. Continue your in-progress work and incorporate the new message if it's relevant; if it's unrelated, you may briefly acknowledge it and carry on.",
  },
  interrupt: {
    prior: `[Previous request ${EM} interrupted before completion]`,
    single: `[New request ${EM} supersedes previous]`,
    multi: `[New request ${EM} supersedes previous`,
    note: 'Note: The previous request was interrupted. Please address the new request.\nIf the new request is unrelated to the previous one, you may briefly acknowledge the interruption.',
  },
} as const;

const XML_MERGE = {
  steer: { prior: 'what-you-were-working-on', current: 'new-message-arrived-while-you-were-working' },
  interrupt: { prior: 'previous-request-interrupted-before-completion', current: 'new-request-supersedes-previous' },
} as const;

/** The blocks of a merge: prior section, new section, closing note. */
export function mergeSections(
  era: 'v4' | 'v5',
  kind: MergeKind,
  cancelled: readonly RenderEvent[],
  events: readonly RenderEvent[],
  channel: RenderChannel,
  tag = '@mention',
): string[] {
  const block = (event: RenderEvent): string => richBlock(event, channel);
  const note = BRACKET_MERGE[kind].note;
  if (era === 'v5') {
    const names = XML_MERGE[kind];
    return [
      `<${names.prior}${countAttribute(cancelled)}>${xmlChunks(cancelled, tag, block)}\n</${names.prior}>`,
      `<${names.current}${countAttribute(events)}>${xmlChunks(events, tag, block)}\n</${names.current}>`,
      note,
    ];
  }
  const framing = BRACKET_MERGE[kind];
  const header = events.length === 1 ? framing.single : `${framing.multi} ${EM} ${events.length} events]`;
  return [`${framing.prior}${chunks(cancelled, tag, block)}`, `${header}${chunks(events, tag, block)}`, note];
}

/**
 * The kept-session re-prompt after a harness restart (X3): the journaled turn's events in a
 * `<your-interrupted-turn-was-handling>` frame laid out like the other V5 frames, no new event
 * section, then a note. The note's exact wording is not known; it starts as X3's does.
 */
export function restartSections(cancelled: readonly RenderEvent[], channel: RenderChannel, tag = '@mention'): string[] {
  const name = 'your-interrupted-turn-was-handling';
  const block = (event: RenderEvent): string => richBlock(event, channel);
  return [
    `<${name}${countAttribute(cancelled)}>${xmlChunks(cancelled, tag, block)}\n</${name}>`,
    'Your previous turn was interrupted before it finished. Continue the work above.',
  ];
}

/** Text blocks as an ACP prompt. */
export function prompt(...texts: string[]): { type: 'text'; text: string }[] {
  return texts.map((text) => ({ type: 'text', text }));
}
