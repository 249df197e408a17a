/**
 * The candidate ends of the event blocks of one rich section (V3, V4, V5), found once per section.
 * A block ends at a `Tags:` line (plus an optional `Parsed:` line) followed by what the section
 * expects next: a blank line and the next separator, or the section's end. Content is verbatim
 * and may imitate all of that, so every such line is only a candidate; rich-chunk.ts picks one.
 *
 * An end followed by a separator can only be the host's if a block start follows the separator:
 * the host renders a valid `Event ID:` line and a `Channel:` line after every separator (see
 * {@link startsRichBlock}). Those ends are therefore found from the block starts, walking back
 * over the separator, the blank line and the `Tags:` (and `Parsed:`) line. A flood of forged
 * separators without forged block starts adds no candidate and costs a look at a few characters
 * each; no message can hide a real end. The section's own end is found from the `Tags:` lines.
 */
import { EVENT_ID_LINE_LENGTH, type SeenFields, startsRichBlock } from './head.js';
import { separatorNumberIn } from './headers.js';
import type { LineText } from './line-text.js';

/** What may follow the end of a block: the next separator (with its number) or the section's end. */
export type Continuation =
  | {
      readonly type: 'separator';
      readonly number: number;
      /** The separator line. */
      readonly line: number;
      /** The line after it, where the next block starts (a block start: see {@link startsRichBlock}). */
      readonly block: number;
    }
  | SectionEndAt;

/** The section ends after a block; `next` is the first line after the section. */
export interface SectionEndAt {
  readonly type: 'end';
  readonly next: number;
}

/**
 * Says whether the section ends at line `after` (the line after a block's `Tags:`/`Parsed:` line),
 * and where. Never asked about a blank line followed by a line that starts with `-`: a section
 * ends at no such line, and a separator there is found from the block after it (see {@link SectionEnds}).
 */
export type SectionEnd = (after: number) => SectionEndAt | undefined;

/**
 * A line that could end an event block: a `Tags:` line followed by structure. It is a candidate
 * only if its value parses as tags too; that is checked when a block looks at it, so a flood of
 * forged ends is not parsed line by line.
 */
export interface Candidate {
  readonly tagsLine: number;
  readonly continuation: Continuation;
}

/** `Tags: [` (a rendered tags value is a JSON array). */
const TAGS = 'Tags: [';
/** The label of the second line of every rich block. */
const CHANNEL = 'Channel: ';

/**
 * Every candidate end of a section, grouped by what follows it (a separator's number, or 0 for the
 * section's end), so each block finds its own in logarithmic time.
 */
export class SectionEnds {
  private readonly byNext = new Map<number, Candidate[]>();

  /** Candidates after line `from`; `sectionEnd` says where the section may end. */
  constructor(
    private readonly text: LineText,
    from: number,
    sectionEnd: SectionEnd,
  ) {
    const source = text.text;
    for (
      let channel = text.nextLineStartingWith(CHANNEL, from);
      channel !== -1;
      channel = text.nextLineStartingWith(CHANNEL, channel)
    ) {
      const block = channel - EVENT_ID_LINE_LENGTH - 1;
      // A block starts a line (so it is not before the text): startsRichBlock does not look before it.
      if (source.charCodeAt(block - 1) !== 10) continue;
      // `E` first: charCodeAt is inlined where startsRichBlock is a call, so a flood of Channel lines costs little.
      // Stryker disable next-line ConditionalExpression,EqualityOperator: startsRichBlock reads the same `E`
      if (source.charCodeAt(block) !== 69 || !startsRichBlock(text, block)) continue;
      const candidate = separatedEnd(text, from, block);
      if (candidate !== undefined) this.add(candidate.continuation.number, candidate);
    }
    for (
      let tagsLine = text.nextLineStartingWith(TAGS, from);
      tagsLine !== -1;
      tagsLine = text.nextLineStartingWith(TAGS, tagsLine)
    ) {
      const after = afterTags(text, tagsLine);
      // A blank line, then a line that starts with `-`: no section end (no header, closing tag or
      // note starts so), and a separator end is found from the block after it, above.
      // Stryker disable next-line EqualityOperator,ConditionalExpression,LogicalOperator,ArithmeticOperator: asking sectionEnd there too only costs time: it answers no
      if (text.isBlank(after) && source.charCodeAt(after + 1) === 45) continue;
      const end = sectionEnd(after);
      if (end !== undefined) this.add(0, { tagsLine, continuation: end });
    }
  }

  private add(key: number, candidate: Candidate): void {
    const list = this.byNext.get(key);
    if (list === undefined) this.byNext.set(key, [candidate]);
    else list.push(candidate);
  }

  /** The candidates after `line` followed by separator `nextSeparator`, or by the end when `mayEnd`, in order. */
  after(line: number, nextSeparator: number | undefined, mayEnd: boolean): readonly Candidate[] {
    // Stryker disable next-line ConditionalExpression: no candidate is filed under `undefined`, the same empty list
    const separated = nextSeparator === undefined ? [] : tailAfter(this.byNext.get(nextSeparator), line);
    const ending = mayEnd ? tailAfter(this.byNext.get(0), line) : [];
    // In line order: the id check feeds one running hash forward from candidate to candidate.
    const merged: Candidate[] = [];
    let e = 0;
    for (const candidate of separated) {
      // Stryker disable next-line EqualityOperator: one Tags line is in one list only, never both
      for (let next = ending[e]; next !== undefined && next.tagsLine < candidate.tagsLine; next = ending[++e]) {
        merged.push(next);
      }
      merged.push(candidate);
    }
    return merged.concat(ending.slice(e));
  }

  /**
   * Whether a `Tags:` line after `line` whose tags parse is followed by a blank line and separator
   * `number`, whatever comes after the separator: then a block without a candidate end is not
   * simply the last one. The Tags lines are searched again, and only until one is found: this
   * runs at most once per section (a block without a candidate fails or ends its section).
   */
  separatorFollows(line: number, number: number, seen: SeenFields): boolean {
    const text = this.text;
    for (let tagsLine = text.nextLineStartingWith(TAGS, line); tagsLine !== -1;) {
      const blank = afterTags(text, tagsLine);
      if (
        text.isBlank(blank) &&
        separatorNumberIn(text.text, blank + 1, text.lineEnd(blank + 1), true) === number &&
        seen.tagsOf(text.line(tagsLine) ?? '') !== undefined
      ) {
        return true;
      }
      tagsLine = text.nextLineStartingWith(TAGS, tagsLine);
    }
    return false;
  }
}

/** The line after a `Tags:` line and the `Parsed:` line that may follow it. */
function afterTags(text: LineText, tagsLine: number): number {
  const line = text.nextOfShort(tagsLine + TAGS.length);
  // `P` first: charCodeAt is inlined, startsWith is a call, and this runs for every Tags line.
  // Stryker disable next-line ConditionalExpression: `true && startsWith(…)` is the same test, without the cheap first look
  return text.text.charCodeAt(line) === 80 && text.startsWith(line, 'Parsed: ') ? text.next(line) : line;
}

/**
 * The end before the block that starts at `block` (a block start at a line start), if the lines above
 * it are a `Tags:` line (after `from`), an optional `Parsed:` line, a blank line and a separator.
 */
function separatedEnd(
  text: LineText,
  from: number,
  block: number,
): (Candidate & { readonly continuation: { readonly number: number } }) | undefined {
  const line = text.previous(block);
  if (!text.followsBlank(line)) return undefined;
  const number = separatorNumberIn(text.text, line, block - 1, true);
  // Stryker disable next-line ConditionalExpression: a candidate without a number is filed under a key no block asks for
  if (number === undefined) return undefined;
  // The line above the blank one (at `line - 1`): the Tags line, or a Parsed line below it.
  const above = text.previous(line - 1);
  const tagsLine = text.startsWith(above, 'Parsed: ') ? text.previous(above) : above;
  if (tagsLine <= from || !text.startsWith(tagsLine, TAGS)) return undefined;
  return { tagsLine, continuation: { type: 'separator', number, line, block } };
}

/** The candidates of a sorted list whose Tags line comes after `line`. */
function tailAfter(list: readonly Candidate[] | undefined, line: number): readonly Candidate[] {
  if (list === undefined) return [];
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    // Stryker disable next-line OptionalChaining: `middle` is always inside the list
    if ((list[middle]?.tagsLine ?? 0) > line) high = middle;
    else low = middle + 1;
  }
  return list.slice(low);
}
