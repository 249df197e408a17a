/**
 * Sections of a prompt: a header (`[Buzz events — 2 events]`, `<buzz-event type="…">`, a merge
 * header) and its event blocks, and the sequence they form (`[What you were working on]` then
 * `[New message — …]`, then an optional closing note). A sequence is read from a known start to
 * the end of its text: in one block when the host sends each section as its own block, or from a
 * candidate header in one string.
 */
import { isTrailer, type SectionHeader, sectionHeader, separatorNumber } from './headers.js';
import { type HashBudget } from './event-id.js';
import { type BlockLayout, ERAS, type EraRow, fieldsOf, type HeaderFamily } from './eras.js';
import { SeenFields } from './head.js';
import { fail, type Failure, isFailure, type ScrapedEvent } from './outcome.js';
import { readPlainSection } from './plain-chunk.js';
import type { LineText } from './line-text.js';
import { readRichChunk } from './rich-chunk.js';
import { type Continuation, type SectionEndCheck, BlockEndCandidates } from './section-ends.js';

/** One section read whole. */
export interface SectionRead {
  readonly header: SectionHeader;
  /** Offset of the header line. */
  readonly headerLine: number;
  readonly events: readonly ScrapedEvent[];
  readonly diagnostics: readonly string[];
}

/** A sequence of sections that runs to the end of its text (or to a closing note). */
export interface SequenceRead {
  readonly sections: readonly SectionRead[];
}

/** At most this many sections in one sequence (prior, marker, new, and a spare). */
const MAX_SECTIONS = 4;

/**
 * Sections already read in one text, by header line: the readings of a one-string prompt from
 * several candidate headers share their later sections, and each is read (and hashed) once.
 */
export type SectionMemo = Map<number, SectionStep | Failure>;

/**
 * Reads the sequence of sections starting at line `start`, which must run to the end of `text`;
 * `memo` keeps the sections read, for other readings of the same text.
 */
export function readSequence(
  text: LineText,
  start: number,
  budget: HashBudget,
  memo: SectionMemo = new Map(),
): SequenceRead | Failure {
  const sections: SectionRead[] = [];
  let at = start;
  for (;;) {
    const header = sectionHeader(text.line(at) ?? '');
    if (header === undefined) {
      return fail('invalid', 'text after a Buzz section is neither a section nor a closing note');
    }
    if (sections.length >= MAX_SECTIONS) return fail('invalid', 'too many Buzz sections in one prompt');
    let read = memo.get(at);
    if (read === undefined) {
      read = readSection(text, at, header, budget);
      memo.set(at, read);
    }
    if (isFailure(read)) return read;
    sections.push(read.section);
    at = read.next;
    while (text.isBlank(at)) at = text.next(at);
    if (at >= text.end || isTrailer(text.line(at) ?? '')) return { sections };
  }
}

/** One section read, and where the text goes on. */
interface SectionStep {
  readonly section: SectionRead;
  /** The first line after the section. */
  readonly next: number;
}

function readSection(
  text: LineText,
  headerLine: number,
  header: SectionHeader,
  budget: HashBudget,
): SectionStep | Failure {
  let first = text.next(headerLine);
  if (header.form === 'chunks') {
    const close = header.close;
    if (close !== undefined && text.isBlank(first) && text.is(text.next(first), close)) first = text.next(first);
    if (close !== undefined && text.is(first, close)) {
      // An empty frame: the V5 native-steer marker before the `<buzz-event>` frame.
      return { section: { header, headerLine, events: [], diagnostics: [] }, next: text.next(first) };
    }
    // The V5 renderer puts the first separator right under an XML frame's opening tag; bracket
    // batches (and hand-made XML) put a blank line between.
    const separatorNext = close !== undefined && separatorNumber(text.line(first) ?? '', true) !== undefined;
    if (!separatorNext) {
      if (!text.isBlank(first)) return fail('invalid', 'a batch header is not followed by a blank line');
      first = text.next(first);
    }
  }
  const layout = layoutOf(header.family, text, header.form === 'chunks' ? text.next(first) : first);
  if (layout !== 'rich') {
    const plain = readPlainSection(text, first, layout, header.form === 'chunks' ? (header.declared ?? 1) : undefined);
    if (isFailure(plain)) return plain;
    return {
      section: { header, headerLine, events: plain.events, diagnostics: plain.diagnostics },
      next: text.end,
    };
  }
  return readRichSection(text, headerLine, first, header, budget);
}

function readRichSection(
  text: LineText,
  headerLine: number,
  first: number,
  header: SectionHeader,
  budget: HashBudget,
): SectionStep | Failure {
  const ends = new BlockEndCandidates(text, first, sectionEndCheckOf(text, header));
  const seen = new SeenFields();
  const diagnostics: string[] = [];
  const events: ScrapedEvent[] = [];
  if (header.form === 'single') {
    const read = readRichChunk({ text, budget, ends, nextSeparator: undefined, mayEnd: true, seen }, first);
    if (isFailure(read)) return read;
    return { section: { header, headerLine, events: [read.event], diagnostics: [] }, next: endOf(read.continuation) };
  }
  if (separatorNumber(text.line(first) ?? '', true) !== 1) {
    return fail('invalid', 'a batch does not start with its first event separator');
  }
  const declared = header.declared;
  let at = first;
  for (let number = 1; ; number++) {
    const mayEnd = declared === undefined || number >= declared;
    // A block that ends the section before the declared count is reported below.
    const read = readRichChunk({ text, budget, ends, nextSeparator: number + 1, mayEnd, seen }, text.next(at));
    if (isFailure(read)) return read;
    events.push(read.event);
    if (read.continuation.type === 'end') {
      if (declared !== undefined && declared !== number) {
        diagnostics.push(`a section header declares ${declared} events; ${number} were found`);
      }
      return { section: { header, headerLine, events, diagnostics }, next: read.continuation.next };
    }
    at = read.continuation.line;
  }
}

function endOf(continuation: Continuation): number {
  return continuation.type === 'end' ? continuation.next : continuation.line;
}

/**
 * Whether the section ends at line `after` (the line after a block's `Tags:`/`Parsed:` line): for
 * an XML frame at its closing tag (after an optional blank line); for a bracket section at the end
 * of the text, or at a blank line followed by another section or a closing note. (A separator
 * there continues the section: those ends are found from the block after them, see BlockEndCandidates.)
 */
function sectionEndCheckOf(text: LineText, header: SectionHeader): SectionEndCheck {
  const close = header.close;
  return (after) => {
    if (text.isBlank(after)) {
      // An empty line's next line starts right after its `\n` (after an empty last line, that is `end`).
      const line = after + 1;
      if (line === text.end) return close === undefined ? { type: 'end', next: after } : undefined;
      const lineEnd = text.lineEnd(line);
      const following = text.text.slice(line, lineEnd);
      if (close !== undefined) return following === close ? { type: 'end', next: lineEnd + 1 } : undefined;
      return sectionHeader(following) !== undefined || isTrailer(following) ? { type: 'end', next: after } : undefined;
    }
    if (close !== undefined) return text.is(after, close) ? { type: 'end', next: text.next(after) } : undefined;
    return after >= text.end ? { type: 'end', next: after } : undefined;
  };
}

/**
 * The layout of a section's blocks: the era its header family belongs to, and where a family spans
 * eras of different layouts (`sprout-event`: V2 or V3), the era whose first field label begins the
 * section's first field line (at `firstFieldLine` in `text`); the oldest such era when none does.
 */
function layoutOf(family: HeaderFamily, text: LineText, firstFieldLine: number): BlockLayout {
  const eras = ERAS.filter((row) => row.headers.includes(family));
  const opens = (row: EraRow): boolean => text.startsWith(firstFieldLine, `${fieldsOf(row.layout)[0] ?? ''}: `);
  return (eras.find(opens) ?? eras[0])?.layout ?? 'rich';
}
