/**
 * One event as each era's host renders it in prompt text (`format_event_block`, and V1's
 * `format_event_lines`): the inverse of what head.ts reads. Event ids are real NIP-01 hashes, so
 * what is rendered here passes the scraper's id check as a real host's output does.
 */
import { getEventHash } from 'nostr-tools/pure';
import { toNpub } from '../npub.js';

/**
 * One event to render: a Nostr event, or a template whose NIP-01 id is computed.
 *
 * @example
 * ```ts
 * import { renderPromptText, type PromptTextEvent } from 'buzz-meta/host'
 *
 * // A template with a pubkey renders too: its NIP-01 id is computed. `label` is the display name shown.
 * const event: PromptTextEvent = {
 *   pubkey: ownerPubkey,
 *   created_at: 1_760_000_000,
 *   kind: 9,
 *   tags: [['h', channelId]],
 *   content: 'hi',
 *   label: 'Ana',
 * }
 * const text = renderPromptText({ era: 'v5', channel: { id: channelId }, events: [event] })
 * ```
 * @group Host
 */
export interface PromptTextEvent {
  /** The author, 64 lowercase hex digits. */
  readonly pubkey: string;
  /** Unix seconds. */
  readonly created_at: number;
  /** Nostr kind. */
  readonly kind: number;
  /** Nostr tags. */
  readonly tags: readonly (readonly string[])[];
  /** The message text, rendered verbatim. */
  readonly content: string;
  /** The id to print; the event's NIP-01 id when absent (give another only to forge one). */
  readonly id?: string;
  /** The author's display name: V3–V5 render `From: <label> (npub: …, hex: …)`, else `From: <npub> (hex: …)`. */
  readonly label?: string | undefined;
}

/**
 * The channel as the host knows it.
 *
 * @example
 * ```ts
 * import { renderPromptText, type PromptTextChannel } from 'buzz-meta/host'
 *
 * const channel: PromptTextChannel = { id: channelId, name: 'engineering' } // the name is shown, never trusted
 * const text = renderPromptText({ era: 'v3', channel, events: [signedEvent] })
 * ```
 * @group Host
 */
export interface PromptTextChannel {
  /** The channel UUID. */
  readonly id: string;
  /** Its name: V3–V5 render `name (#uuid)` where the host knew one, the bare UUID otherwise. */
  readonly name?: string;
}

/** U+2014, the dash of every header and merge frame. */
export const EM = '\u2014';

/** The NIP-01 id of `event`, unless it carries one. */
function idOf(event: PromptTextEvent): string {
  return (
    event.id ??
    getEventHash({
      pubkey: event.pubkey,
      created_at: event.created_at,
      kind: event.kind,
      tags: event.tags as string[][],
      content: event.content,
    })
  );
}

/** `chrono::DateTime::to_rfc3339` of whole seconds: `+00:00`, never `Z`. */
function rfc3339(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', '+00:00');
}

/** `name (#uuid)`, or the bare UUID. */
export function channelDisplay(channel: PromptTextChannel): string {
  return channel.name === undefined ? channel.id : `${channel.name} (#${channel.id})`;
}

function richFrom(event: PromptTextEvent): string {
  const npub = toNpub(event.pubkey);
  return event.label === undefined
    ? `${npub} (hex: ${event.pubkey})`
    : `${event.label} (npub: ${npub}, hex: ${event.pubkey})`;
}

/** `parse_thread_tags` and the `Parsed:` line (mentions bare: no profiles are known here). */
function parsedLine(tags: readonly (readonly string[])[]): string | undefined {
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

/** The V3/V4/V5 block: id, channel, kind, labelled sender, time, content, tags, and the `Parsed:` line. */
export function richBlock(event: PromptTextEvent, channel: PromptTextChannel): string {
  let text =
    `Event ID: ${idOf(event)}\nChannel: ${channelDisplay(channel)}\nKind: ${String(event.kind)}\n` +
    `From: ${richFrom(event)}\nTime: ${rfc3339(event.created_at)}\nContent: ${event.content}\n` +
    `Tags: ${JSON.stringify(event.tags)}`;
  const parsed = parsedLine(event.tags);
  if (parsed !== undefined) text += `\nParsed: ${parsed}`;
  return text;
}

/** Kinds a V2 host (commit c85a2226) renders without a `Tags:` line. */
const V2_STREAM_KINDS = new Set([40_001, 40_002]);

/** The V2 block: no id, the sender as an npub only, `Tags:` only for kinds other than the stream ones. */
export function v2Block(event: PromptTextEvent, channel: PromptTextChannel): string {
  const text =
    `Channel: ${channel.id}\nKind: ${String(event.kind)}\nFrom: ${toNpub(event.pubkey)}\n` +
    `Time: ${rfc3339(event.created_at)}\nContent: ${event.content}`;
  return V2_STREAM_KINDS.has(event.kind) ? text : `${text}\nTags: ${JSON.stringify(event.tags)}`;
}

/** The V1 lines: channel, sender npub, time, `Message:`. */
export function v1Lines(event: PromptTextEvent, channel: PromptTextChannel): string {
  return `Channel: ${channel.id}\nFrom: ${toNpub(event.pubkey)}\nTime: ${rfc3339(event.created_at)}\nMessage: ${event.content}`;
}
