/**
 * The sections of a prompt as each era's host writes them (`format_prompt`, `prompt_framing.rs`):
 * the event section (one event or a batch), the `[Context]` / `<context>` section, the
 * Steer/Interrupt merge frames and the V5 restart re-prompt. Header texts, separators and blank
 * lines are the hosts' own, since the scraper tells a real header from quoted text by exactly them.
 */
import {
  channelDisplay,
  EM,
  type PromptTextChannel,
  type PromptTextEvent,
  richBlock,
  v1Lines,
  v2Block,
} from './render-event.js';

/**
 * A rendering era: V1–V2 (Sprout), V3 (Sprout, rich blocks), V4 (Buzz, brackets), V5 (Buzz, XML frames).
 *
 * @example
 * ```ts
 * import { readBuzzContext } from 'buzz-meta'
 * import { renderPromptText, type PromptTextEra } from 'buzz-meta/host'
 *
 * // Test the scraped path against every era a host may still send.
 * for (const era of ['v1', 'v2', 'v3', 'v4', 'v5'] as const satisfies readonly PromptTextEra[]) {
 *   const read = readBuzzContext({ sessionId, prompt: renderPromptText({ era, channel: { id: channelId }, events }) })
 *   console.error(era, read.ok && read.context.trust) // 'scraped'
 * }
 * ```
 * @group Host
 */
export type PromptTextEra = 'v1' | 'v2' | 'v3' | 'v4' | 'v5';

/** The turn the cancelled events belonged to: a Steer or an Interrupt merge. */
type MergeKind = 'steer' | 'interrupt';

/**
 * What the `[Context]` / `<context>` section says.
 *
 * @example
 * ```ts
 * import { renderPromptText, type PromptTextContext } from 'buzz-meta/host'
 *
 * const context: PromptTextContext = { scope: 'thread', root: rootId, replyTo: signedEvent.id }
 * const text = renderPromptText({ era: 'v4', channel: { id: channelId }, context, events: [signedEvent] })
 * ```
 * @group Host
 */
export interface PromptTextContext {
  /** The scope of the turn, from its last event. */
  readonly scope: 'dm' | 'thread' | 'channel';
  /** `Thread root:` (a thread, or a DM reply). */
  readonly root?: string;
  /** `Parent:` (where it differs from the root). */
  readonly parent?: string;
  /** The id of the `IMPORTANT: … --reply-to <id>` line of a human-facing turn. */
  readonly replyTo?: string;
}

function chunks(events: readonly PromptTextEvent[], tag: string, block: (event: PromptTextEvent) => string): string {
  return events.map((event, i) => `\n\n--- Event ${String(i + 1)} (${tag}) ---\n${block(event)}`).join('');
}

/** A V5 frame's body: the first separator on the line after the opening tag, one blank line between blocks. */
function xmlChunks(events: readonly PromptTextEvent[], tag: string, block: (event: PromptTextEvent) => string): string {
  return chunks(events, tag, block).slice(1);
}

/** ` count="N"` on a V5 frame of two or more events. */
function countAttribute(events: readonly PromptTextEvent[]): string {
  return events.length > 1 ? ` count="${String(events.length)}"` : '';
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** The event section of one era: one event, or a batch of several (at least one). */
export function eventSection(
  era: PromptTextEra,
  events: readonly PromptTextEvent[],
  channel: PromptTextChannel,
  tag = '@mention',
): string {
  const n = String(events.length);
  const [first] = events;
  if (first === undefined) throw new RangeError('a section renders at least one event');
  if (era === 'v1') {
    if (events.length === 1) return `[Sprout @mention]\n${v1Lines(first, channel)}`;
    return (
      `[Sprout @mention ${EM} ${n} events]\n` +
      events.map((event, i) => `\n--- Event ${String(i + 1)} ---\n${v1Lines(event, channel)}\n`).join('')
    );
  }
  const brand = era === 'v4' ? 'Buzz' : 'Sprout';
  const block = (event: PromptTextEvent): string =>
    era === 'v2' ? v2Block(event, channel) : richBlock(event, channel);
  if (era === 'v5') {
    if (events.length === 1) return `<buzz-event type="${escapeAttribute(tag)}">\n${block(first)}\n</buzz-event>`;
    return `<buzz-events count="${n}">${xmlChunks(events, tag, block)}\n</buzz-events>`;
  }
  if (events.length === 1) return `[${brand} event: ${tag}]\n${block(first)}`;
  return `[${brand} events ${EM} ${n} events]${chunks(events, tag, block)}`;
}

/** The `[Context]` section of a V3/V4 host, or V5's `<context>`. */
export function contextSection(
  era: 'v3' | 'v4' | 'v5',
  scope: PromptTextContext['scope'],
  channel: PromptTextChannel,
  anchors: Omit<PromptTextContext, 'scope'> = {},
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

/** The sections of a Steer/Interrupt merge (V4 brackets, V5 frames): prior events, new events, closing note. */
export function mergeSections(
  era: 'v4' | 'v5',
  kind: MergeKind,
  cancelled: readonly PromptTextEvent[],
  events: readonly PromptTextEvent[],
  channel: PromptTextChannel,
  tag = '@mention',
): string[] {
  const block = (event: PromptTextEvent): string => richBlock(event, channel);
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
  const header = events.length === 1 ? framing.single : `${framing.multi} ${EM} ${String(events.length)} events]`;
  return [`${framing.prior}${chunks(cancelled, tag, block)}`, `${header}${chunks(events, tag, block)}`, note];
}

/**
 * The kept-session re-prompt after a harness restart (V5): the interrupted turn's events in a
 * `<your-interrupted-turn-was-handling>` frame laid out like the other V5 frames, no new event
 * section, then a note. The note's exact wording is not known; it starts as the host's does.
 */
export function restartSections(
  cancelled: readonly PromptTextEvent[],
  channel: PromptTextChannel,
  tag = '@mention',
): string[] {
  const name = 'your-interrupted-turn-was-handling';
  const block = (event: PromptTextEvent): string => richBlock(event, channel);
  return [
    `<${name}${countAttribute(cancelled)}>${xmlChunks(cancelled, tag, block)}\n</${name}>`,
    'Your previous turn was interrupted before it finished. Continue the work above.',
  ];
}
