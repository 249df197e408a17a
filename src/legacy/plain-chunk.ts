/**
 * Event blocks of the Sprout eras that render no `Event ID:` (V1 `Message:`, V2 `Content:`).
 * Nothing can confirm a boundary there, so a section is read only when its structure is
 * unambiguous: each separator it needs occurs exactly once where it can be. A forged separator
 * that could be real makes the read fail; one that cannot (a number out of sequence, or past the
 * count the header declares) is content.
 */
import { fieldValue, parseTags } from './fields.js';
import type { BlockLayout } from './eras.js';
import { contentOf, readHead, SeenFields } from './head.js';
import { separatorNumber } from './headers.js';
import type { LineText } from './line-text.js';
import { fail, type Failure, type ScrapedEvent } from './outcome.js';

/** Kinds that a V2 host rendered without a `Tags:` line, depending on its commit. */
const V2_CHAT_KINDS: ReadonlySet<number> = new Set([9, 40_001, 40_002]);

/** The events of a plain section and what was noticed reading them. */
interface PlainSectionRead {
  readonly events: ScrapedEvent[];
  readonly diagnostics: string[];
}

/**
 * Reads the blocks of a V1/V2 section that runs from `first` (the first field line, or the first
 * separator when `declared` is set) to the end of the text.
 */
export function readPlainSection(
  text: LineText,
  first: number,
  layout: Exclude<BlockLayout, 'rich'>,
  declared: number | undefined,
): PlainSectionRead | Failure {
  const diagnostics: string[] = [];
  const seen = new SeenFields();
  if (declared === undefined) {
    const event = readPlainBlock(text, first, layout, text.end, false, diagnostics, seen);
    return 'failure' in event ? event : { events: [event], diagnostics };
  }
  const tagged = layout !== 'message';
  if (separatorNumber(text.line(first) ?? '', tagged) !== 1) {
    return fail('invalid', 'a batch does not start with its first event separator');
  }
  const separators = separatorsByNumber(text, text.next(first), tagged);
  const events: ScrapedEvent[] = [];
  let at = first;
  for (let number = 2; ; number++) {
    // A host numbers exactly the events it declares: a separator numbered past the count is content.
    const next = number > declared ? [] : (separators.get(number) ?? []).filter((line) => line > at);
    if (next.length > 1) {
      return fail('ambiguous', 'an event separator occurs more than once and no event id tells which is real');
    }
    const end = next[0];
    // A separator counts only after an empty line, so `end - 1` is that line's offset.
    const event = readPlainBlock(
      text,
      text.next(at),
      layout,
      end === undefined ? text.end : end - 1,
      end === undefined,
      diagnostics,
      seen,
    );
    if ('failure' in event) return event;
    events.push(event);
    if (end === undefined) break;
    at = end;
  }
  if (events.length !== declared) {
    diagnostics.push(`the batch header declares ${declared} events; ${events.length} were found`);
  }
  return { events, diagnostics };
}

/** Separator lines that follow a blank line, by number. */
function separatorsByNumber(text: LineText, from: number, tagged: boolean): Map<number, number[]> {
  const found = new Map<number, number[]>();
  for (let line = from; line < text.end; line = text.next(line)) {
    if (!text.followsBlank(line)) continue;
    const number = separatorNumber(text.line(line) ?? '', tagged);
    if (number === undefined) continue;
    const list = found.get(number);
    if (list === undefined) found.set(number, [line]);
    else list.push(line);
  }
  return found;
}

function readPlainBlock(
  text: LineText,
  at: number,
  layout: Exclude<BlockLayout, 'rich'>,
  end: number,
  last: boolean,
  diagnostics: string[],
  seen: SeenFields,
): ScrapedEvent | Failure {
  const head = readHead(text, at, layout, seen);
  if ('problem' in head) return fail('invalid', head.problem);
  let stop = end;
  // A V1 batch ends every block with a newline: the last block's trailing empty line is not content.
  // (The line before `stop` is at least the non-empty `Message:` line.)
  if (layout === 'message' && last && text.isBlank(text.previous(stop))) stop = text.previous(stop);
  let tags: readonly (readonly string[])[] | undefined;
  if (layout === 'content') {
    // The line before `stop` is a content line, or the `Content:` line itself (never a Tags line).
    const value = fieldValue(text.line(text.previous(stop)), 'Tags: ');
    const parsed = value === undefined ? undefined : parseTags(value);
    if (parsed !== undefined) {
      stop = text.previous(stop);
      if (V2_CHAT_KINDS.has(head.kind ?? -1)) {
        diagnostics.push('a V2 chat event ends in a Tags line that may be message text; its tags are not used');
      } else {
        tags = parsed;
      }
    }
  }
  // V1/V2 render no label (parseBareSender never returns one).
  return {
    id: null,
    sender: head.sender.pubkey,
    kind: head.kind,
    createdAt: head.createdAt,
    content: contentOf(text, head, stop),
    ...(tags === undefined ? {} : { tags }),
    channel: head.channel,
  };
}
