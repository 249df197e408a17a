/**
 * One event block of the eras that render `Event ID:` (V3, V4, V5): its head is fixed, its
 * content is verbatim and may imitate anything, and it ends at a `Tags:` line (plus an optional
 * `Parsed:` line) followed by the structure the section expects next. Every such line is only a
 * candidate end. The host's own end is always among them, so a block with exactly one candidate
 * has only one reading; with more, the one whose reading hashes to the rendered id is the real
 * one (a forged end cannot produce it without a sha256 preimage), and none hashing is ambiguous.
 */
import type { RenderedTags } from './fields.js';
import { contentOf, type EventHead, readHead, type SeenFields, startsRichBlock } from './head.js';
import { type HashBudget, IdChecker } from './event-id.js';
import type { LineText } from './line-text.js';
import { fail, type Failure, type Mutable, type ScrapedEvent } from './outcome.js';

/** What may follow the end of a block: the next separator (with its number) or the section's end. */
export type Continuation =
  | {
      readonly type: 'separator';
      readonly number: number;
      /** The separator line. */
      readonly line: number;
      /** The line after it, where the next block starts. */
      readonly block: number;
    }
  | { readonly type: 'end'; readonly next: number };

/**
 * A line that could end an event block: a `Tags:` line followed by structure. It is a candidate
 * only if its value parses as tags too; that is checked when a block looks at it (see
 * `nextParsed`), so a flood of forged ends is not parsed line by line.
 */
interface Candidate {
  readonly tagsLine: number;
  readonly continuation: Continuation;
}

/** A candidate whose tags parse, and its place in the list it was taken from. */
interface ParsedEnd {
  readonly index: number;
  readonly tagsLine: number;
  readonly tags: RenderedTags;
  readonly continuation: Continuation;
}

/**
 * Every candidate end of a section, found in one pass over its text and grouped by what follows
 * it (a separator's number, or 0 for the section's end), so each block counts its own in
 * logarithmic time.
 */
export class SectionEnds {
  private readonly byNext = new Map<number, Candidate[]>();

  /**
   * Candidates from line `from` on; `continuation(after)` says what structure (if any) starts at
   * line `after`.
   */
  constructor(text: LineText, from: number, continuation: (after: number) => Continuation | undefined) {
    for (const tagsLine of text.linesStartingWith('Tags: [', from)) {
      const line = text.next(tagsLine);
      const after = text.startsWith(line, 'Parsed: ') ? text.next(line) : line;
      const next = continuation(after);
      if (next === undefined) continue;
      const key = next.type === 'end' ? 0 : next.number;
      const list = this.byNext.get(key);
      const candidate = { tagsLine, continuation: next };
      if (list === undefined) this.byNext.set(key, [candidate]);
      else list.push(candidate);
    }
  }

  /** The candidates after `line` followed by separator `nextSeparator`, or by the end when `mayEnd`, in order. */
  after(line: number, nextSeparator: number | undefined, mayEnd: boolean): readonly Candidate[] {
    const separated = nextSeparator === undefined ? [] : tailAfter(this.byNext.get(nextSeparator), line);
    const ending = mayEnd ? tailAfter(this.byNext.get(0), line) : [];
    // In line order: the id check feeds one running hash forward from candidate to candidate.
    const merged: Candidate[] = [];
    let e = 0;
    for (const candidate of separated) {
      for (let next = ending[e]; next !== undefined && next.tagsLine < candidate.tagsLine; next = ending[++e]) {
        merged.push(next);
      }
      merged.push(candidate);
    }
    return merged.concat(ending.slice(e));
  }
}

/** The candidates of a sorted list whose Tags line comes after `line`. */
function tailAfter(list: readonly Candidate[] | undefined, line: number): readonly Candidate[] {
  if (list === undefined) return [];
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle]?.tagsLine ?? 0) > line) high = middle;
    else low = middle + 1;
  }
  return list.slice(low);
}

/** The structure around one block, supplied by its section. */
export interface ChunkFrame {
  readonly text: LineText;
  readonly budget: HashBudget;
  /** The candidate ends of the whole section. */
  readonly ends: SectionEnds;
  /** The separator number that may follow this block, or `undefined` if none may. */
  readonly nextSeparator: number | undefined;
  /** Whether this block may be the last of its section. */
  readonly mayEnd: boolean;
  /** The channel and senders read in the section so far. */
  readonly seen: SeenFields;
}

/** A block read whole: the event and what follows it. */
export interface ChunkRead {
  readonly event: ScrapedEvent;
  readonly continuation: Continuation;
}

/** Reads the rich event block whose first field line is `at`. */
export function readRichChunk(frame: ChunkFrame, at: number): ChunkRead | Failure {
  const text = frame.text;
  const head = readHead(text, at, 'rich', frame.seen);
  if ('problem' in head) return fail('invalid', head.problem);
  let candidates = frame.ends.after(head.contentLine, frame.nextSeparator, frame.mayEnd);
  let only = nextParsed(text, frame.seen, candidates, 0);
  if (only === undefined) {
    // The header may overstate the count: with no separator where the next block would start,
    // this block is the last one. (Only then: the real end is among the candidates of a true frame.)
    candidates = frame.ends.after(head.contentLine, undefined, true);
    only = nextParsed(text, frame.seen, candidates, 0);
  }
  if (only === undefined) return fail('invalid', 'an event block has no Tags line where its section expects one');
  if (nextParsed(text, frame.seen, candidates, only.index + 1) === undefined) return chunkRead(text, head, only);
  // After a real separator the host always renders a block that starts with a valid `Event ID:`
  // line and a `Channel:` line, whatever it renders below them (a Sprout-era label may hold a
  // newline, so the rest of a real head need not read). The host's end is therefore always among
  // the candidates followed by such a start: when exactly one is, it is the only reading, as a
  // lone candidate is, and nothing is hashed. A flood of forged separators followed by anything
  // else costs a look at two lines each.
  const first = nextEnd(text, frame.seen, candidates, 0, false);
  if (first === undefined) {
    return fail('ambiguous', 'an event block has several possible ends and none matches its event id');
  }
  if (nextEnd(text, frame.seen, candidates, first.index + 1, false) === undefined) {
    return chunkRead(text, head, first);
  }
  const checker = new IdChecker(
    text,
    {
      id: head.id ?? '',
      pubkey: head.sender.pubkey,
      createdAt: head.createdAt,
      kind: head.kind ?? 0,
      firstContent: head.firstContent,
      contentLine: head.contentLine,
    },
    frame.budget,
  );
  // Several possible ends: the one whose fields hash to the rendered id, in line order (a forged
  // end cannot produce it without a sha256 preimage). An end followed by a block that does not
  // read is skipped: were it the host's, no other end could hash to the id, and the read fails.
  for (
    let end = nextEnd(text, frame.seen, candidates, 0, true);
    end !== undefined;
    end = nextEnd(text, frame.seen, candidates, end.index + 1, true)
  ) {
    const matches = checker.matches(end.tags, end.tagsLine);
    if (matches === undefined) {
      return fail('ambiguous', 'too many possible event boundaries to check against their event ids');
    }
    if (matches) return chunkRead(text, head, end);
  }
  return fail('ambiguous', 'an event block has several possible ends and none matches its event id');
}

/** The first candidate from `from` on whose tags parse. */
function nextParsed(
  text: LineText,
  seen: SeenFields,
  candidates: readonly Candidate[],
  from: number,
): ParsedEnd | undefined {
  for (let index = from; ; index++) {
    const candidate = candidates[index];
    if (candidate === undefined) return undefined;
    const { tagsLine, continuation } = candidate;
    const tags = seen.tagsOf(text.line(tagsLine) ?? '');
    if (tags !== undefined) return { index, tagsLine, tags, continuation };
  }
}

/**
 * The first candidate from `from` on that the host could have rendered: its tags parse, and it
 * ends the section or a block start follows it (with `readable`, a block whose whole head reads).
 * The lines after it are looked at before its tags are parsed.
 */
function nextEnd(
  text: LineText,
  seen: SeenFields,
  candidates: readonly Candidate[],
  from: number,
  readable: boolean,
): ParsedEnd | undefined {
  for (let index = from; ; index++) {
    const candidate = candidates[index];
    if (candidate === undefined) return undefined;
    const { tagsLine, continuation } = candidate;
    if (continuation.type === 'separator') {
      const at = continuation.block;
      if (!startsRichBlock(text, at)) continue;
      if (readable && 'problem' in readHead(text, at, 'rich', seen)) continue;
    }
    const tags = seen.tagsOf(text.line(tagsLine) ?? '');
    if (tags !== undefined) return { index, tagsLine, tags, continuation };
  }
}

function chunkRead(text: LineText, head: EventHead, end: ParsedEnd): ChunkRead {
  const event: Mutable<ScrapedEvent> = {
    id: head.id,
    sender: head.sender.pubkey,
    kind: head.kind,
    createdAt: head.createdAt,
    content: contentOf(text, head, end.tagsLine),
    tags: end.tags,
    channel: head.channel,
  };
  // Assigned rather than spread in: this runs once per event of every prompt.
  if (head.sender.label !== undefined) event.senderLabel = head.sender.label;
  return { event, continuation: end.continuation };
}
