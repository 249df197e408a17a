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
import { parseTags, type RenderedTags } from './fields.js';
import { EVENT_ID_LINE_LENGTH, startsRichBlock } from './head.js';
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
  | EndOfSection;

/** The section ends after a block; `next` is the first line after the section. */
interface EndOfSection {
  readonly type: 'end';
  readonly next: number;
}

/**
 * Says whether the section ends at line `after` (the line after a block's `Tags:`/`Parsed:` line),
 * and where. Never asked about a blank line followed by a line that starts with `-`: a section
 * ends at no such line, and a separator there is found from the block after it (see {@link BlockEndCandidates}).
 */
export type SectionEndCheck = (after: number) => EndOfSection | undefined;

/**
 * A line that could end an event block: a `Tags:` line followed by structure. It is a candidate
 * only if its value parses as tags too; that is checked when a block looks at it (once per line,
 * see {@link BlockEndCandidates.tagsAt}), so a flood of forged ends is not parsed line by line.
 */
interface BlockEndCandidate {
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
export class BlockEndCandidates {
  private readonly byNext = new Map<number, BlockEndCandidate[]>();
  /** The tags of each Tags line asked about, `null` when they do not parse. */
  private readonly parsed = new Map<number, RenderedTags | null>();
  /** The last Tags value parsed, and its tags: the events of a channel often carry the same tags. */
  private lastValue: string | undefined;
  private lastTags: RenderedTags | undefined;

  /** Candidates after line `from`; `endCheck` says where the section may end. */
  constructor(
    private readonly text: LineText,
    from: number,
    endCheck: SectionEndCheck,
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
      if (text.isBlank(after) && source.charCodeAt(after + 1) === 45) continue;
      const end = endCheck(after);
      if (end !== undefined) this.add(0, { tagsLine, continuation: end });
    }
  }

  private add(key: number, candidate: BlockEndCandidate): void {
    const list = this.byNext.get(key);
    if (list === undefined) this.byNext.set(key, [candidate]);
    else list.push(candidate);
  }

  /**
   * The candidates after `line` followed by separator `nextSeparator`, or by the end when `mayEnd`,
   * in line order, one at a time: nothing is copied, so a block that stops at its first candidate
   * costs two binary searches whatever the section holds.
   */
  after(line: number, nextSeparator: number | undefined, mayEnd: boolean): EndCursor {
    const separated = nextSeparator === undefined ? NONE : (this.byNext.get(nextSeparator) ?? NONE);
    const ending = mayEnd ? (this.byNext.get(0) ?? NONE) : NONE;
    return new EndCursor(separated, firstAfter(separated, line), ending, firstAfter(ending, line));
  }

  /**
   * The tags of the `Tags:` line at `tagsLine`, or `undefined` when its value does not parse:
   * each line is parsed at most once per section, however many blocks ask.
   */
  tagsAt(tagsLine: number): RenderedTags | undefined {
    const known = this.parsed.get(tagsLine);
    if (known !== undefined) return known ?? undefined;
    const value = this.text.text.slice(tagsLine + TAGS.length - 1, this.text.lineEnd(tagsLine));
    if (value !== this.lastValue) {
      this.lastValue = value;
      this.lastTags = parseTags(value);
    }
    this.parsed.set(tagsLine, this.lastTags ?? null);
    return this.lastTags;
  }

  /**
   * Whether a `Tags:` line after `line` whose tags parse is followed by a blank line and separator
   * `number`, whatever comes after the separator: then a block without a candidate end is not
   * simply the last one. The Tags lines are searched again, and only until one is found: this
   * runs at most once per section (a block without a candidate fails or ends its section).
   */
  separatorFollows(line: number, number: number): boolean {
    const text = this.text;
    for (let tagsLine = text.nextLineStartingWith(TAGS, line); tagsLine !== -1;) {
      const blank = afterTags(text, tagsLine);
      if (
        text.isBlank(blank) &&
        separatorNumberIn(text.text, blank + 1, text.lineEnd(blank + 1), true) === number &&
        this.tagsAt(tagsLine) !== undefined
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
): (BlockEndCandidate & { readonly continuation: { readonly number: number } }) | undefined {
  const line = text.previous(block);
  if (!text.followsBlank(line)) return undefined;
  const number = separatorNumberIn(text.text, line, block - 1, true);
  if (number === undefined) return undefined;
  // The line above the blank one (at `line - 1`): the Tags line, or a Parsed line below it.
  const above = text.previous(line - 1);
  const tagsLine = text.startsWith(above, 'Parsed: ') ? text.previous(above) : above;
  if (tagsLine <= from || !text.startsWith(tagsLine, TAGS)) return undefined;
  return { tagsLine, continuation: { type: 'separator', number, line, block } };
}

const NONE: readonly BlockEndCandidate[] = [];

/**
 * Candidates of two lists sorted by line, merged in line order as they are read: the id check
 * feeds one running hash forward from candidate to candidate.
 */
export class EndCursor implements Iterable<BlockEndCandidate> {
  /** Reads `separated` from `i` and `ending` from `j` on. */
  constructor(
    private readonly separated: readonly BlockEndCandidate[],
    private i: number,
    private readonly ending: readonly BlockEndCandidate[],
    private j: number,
  ) {}

  /** The next candidate in line order, or `undefined` after the last. */
  next(): BlockEndCandidate | undefined {
    const separated = this.separated[this.i];
    const ending = this.ending[this.j];
    if (separated !== undefined && (ending === undefined || separated.tagsLine < ending.tagsLine)) {
      this.i++;
      return separated;
    }
    if (ending !== undefined) this.j++;
    return ending;
  }

  *[Symbol.iterator](): Iterator<BlockEndCandidate> {
    for (let candidate = this.next(); candidate !== undefined; candidate = this.next()) yield candidate;
  }
}

/** The index of the first candidate of a sorted list whose Tags line comes after `line`. */
function firstAfter(list: readonly BlockEndCandidate[], line: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle]?.tagsLine ?? 0) > line) high = middle;
    else low = middle + 1;
  }
  return low;
}
