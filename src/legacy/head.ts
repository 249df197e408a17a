/**
 * The fixed lines at the top of a rendered event block, up to `Content:` (or V1's `Message:`),
 * read as its layout's row of `LAYOUTS` (eras.ts) says. They come before any message text, so at a
 * real block start they are authoritative: the first `Event ID:`, `Channel:`, `From:` after a real
 * separator are the host's, whatever the content below them imitates.
 */
import {
  type ChannelDisplay,
  fieldValue,
  parseBareSender,
  parseChannelDisplay,
  parseKind,
  parseRichSender,
  parseTime,
  type RenderedSender,
  type SenderProblem,
} from './fields.js';
import { isHex64 } from '../shared/hex.js';
import { type BlockLayout, LAYOUTS } from './eras.js';
import type { LineText } from './line-text.js';

/** The header fields of one event block. */
export interface EventHead {
  /** The layout the block was read with. */
  readonly layout: BlockLayout;
  /** `Event ID:` (rich layout only). */
  readonly id: string | null;
  /** `Channel:`. */
  readonly channel: ChannelDisplay;
  /** `Kind:` (absent in the `message` layout). */
  readonly kind: number | null;
  /** `From:`. */
  readonly sender: RenderedSender;
  /** `Time:` in Unix seconds. */
  readonly createdAt: number;
  /** Offset of the `Content:` / `Message:` line. */
  readonly contentLine: number;
  /** The first content line's text (after the label). */
  readonly firstContent: string;
}

/** Why a block head could not be read: a sentence that echoes nothing received. */
interface HeadProblem {
  readonly problem: string;
}

/**
 * Whether a rich block starts at line `at`: a valid `Event ID:` line, then a `Channel:` line. The
 * host renders both after every separator whatever else the block holds (a channel name or a
 * Sprout-era label may break the lines below), so every real block start passes. Tested in place:
 * this runs for every candidate end a flood of forged separators adds.
 */
export function startsRichBlock(text: LineText, at: number): boolean {
  // Labels and line ends first, in place (no line is cut out); the 64 digits last.
  const source = text.text;
  return (
    source.startsWith('Event ID: ', at) &&
    source.charCodeAt(at + EVENT_ID_LINE_LENGTH) === 10 &&
    source.startsWith('Channel: ', at + EVENT_ID_LINE_LENGTH + 1) &&
    isHex64(source.slice(at + 10, at + EVENT_ID_LINE_LENGTH))
  );
}

/** `Event ID: ` and 64 hex digits. */
export const EVENT_ID_LINE_LENGTH = 74;

/** At most this many distinct senders are remembered per section (a delivery has a few). */
const MAX_SEEN_SENDERS = 4;

/**
 * The `Channel:` and `From:` values already read in one section, and what they parsed to: every
 * block of a delivery names the same channel and one of a few senders, and reading them again
 * costs more than the rest of a head (the legacy throughput goal, docs/performance.md). Values are compared whole, so a hit is the same text and
 * therefore the same answer. One per section, dropped with it: it keeps no prompt text alive.
 */
export class SeenFields {
  private channelText: string | undefined;
  private channel: ChannelDisplay | undefined;
  private readonly senders: { readonly text: string; readonly sender: RenderedSender | SenderProblem }[] = [];

  /** {@link parseChannelDisplay}, remembered. */
  channelOf(text: string): ChannelDisplay | undefined {
    if (text === this.channelText) return this.channel;
    this.channelText = text;
    this.channel = parseChannelDisplay(text);
    return this.channel;
  }

  /** {@link parseRichSender}, remembered for the first few senders. */
  senderOf(text: string): RenderedSender | SenderProblem {
    for (const known of this.senders) {
      if (known.text === text) return known.sender;
    }
    const sender = parseRichSender(text);
    if (this.senders.length < MAX_SEEN_SENDERS) this.senders.push({ text, sender });
    return sender;
  }
}

/**
 * Reads the head of an event block whose first field line is at offset `at`; `seen` remembers the
 * channel and senders of the section's earlier blocks.
 */
export function readHead(text: LineText, at: number, layout: BlockLayout, seen: SeenFields): EventHead | HeadProblem {
  const row = LAYOUTS[layout];
  let line = at;
  let id: string | null = null;
  if (row.eventId) {
    const value = fieldValue(text.line(line), 'Event ID: ');
    if (value === undefined || !isHex64(value)) return { problem: 'an event block has no valid Event ID line' };
    id = value;
    line = text.next(line);
  }
  const channelText = fieldValue(text.line(line), 'Channel: ');
  const channel = channelText === undefined ? undefined : seen.channelOf(channelText);
  if (channel === undefined || (row.channel === 'uuid' && channel.name !== undefined)) {
    return { problem: 'an event block has no valid Channel line' };
  }
  line = text.next(line);
  let kind: number | null = null;
  if (row.kind) {
    const value = fieldValue(text.line(line), 'Kind: ');
    const parsed = value === undefined ? undefined : parseKind(value);
    if (parsed === undefined) return { problem: 'an event block has no valid Kind line' };
    kind = parsed;
    line = text.next(line);
  }
  const fromText = fieldValue(text.line(line), 'From: ');
  if (fromText === undefined) return { problem: 'an event block has no From line' };
  line = text.next(line);
  const sender = row.sender === 'named' ? seen.senderOf(fromText) : parseBareSender(fromText);
  if (sender === 'mismatch') return { problem: "a sender's npub and hex disagree" };
  if (sender === 'malformed') return { problem: 'an event block has no valid From line' };
  const timeText = fieldValue(text.line(line), 'Time: ');
  const createdAt = timeText === undefined ? undefined : parseTime(timeText);
  if (createdAt === undefined) return { problem: 'an event block has no valid Time line' };
  const contentLine = text.next(line);
  const firstContent = fieldValue(text.line(contentLine), BODY_LABEL[layout]);
  if (firstContent === undefined) return { problem: 'an event block has no Content line' };
  return { layout, id, channel, kind, sender, createdAt, contentLine, firstContent };
}

/** The label of each layout's content line, as written before the content. */
const BODY_LABEL: Readonly<Record<BlockLayout, string>> = {
  message: `${LAYOUTS.message.body}: `,
  content: `${LAYOUTS.content.body}: `,
  rich: `${LAYOUTS.rich.body}: `,
};

/** The content of a block: from after its label to the line `end` (exclusive), as one slice. */
export function contentOf(text: LineText, head: EventHead, end: number): string {
  return text.slice(head.contentLine + BODY_LABEL[head.layout].length, end);
}
