/**
 * Sections of a prompt: a header (`[Buzz events — 2 events]`, `<buzz-event type="…">`, a merge
 * header) and its event blocks, and the sequence they form (`[What you were working on]` then
 * `[New message — …]`, then an optional closing note). A sequence is read from a known start to
 * the end of its text: in one block when the host sends each section as its own block, or from a
 * candidate header in one string.
 */
import { isTrailer, type SectionHeader, sectionHeader, separatorNumber } from './headers.js';
import { type HashBudget } from './event-id.js';
import { SeenFields, sproutLayout } from './head.js';
import { fail, type Failure, isFailure, type ScrapedEvent } from './outcome.js';
import { readPlainSection } from './plain-chunk.js';
import type { LineText } from './line-text.js';
import { type Continuation, readRichChunk, SectionEnds } from './rich-chunk.js';

/** One section read whole. */
export interface SectionRead {
  readonly header: SectionHeader;
  /** Index of the header line. */
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

/** Reads the sequence of sections starting at line `start`, which must run to the end of `text`. */
export function readSequence(text: LineText, start: number, budget: HashBudget): SequenceRead | Failure {
  const lines = text.lines;
  const sections: SectionRead[] = [];
  let at = start;
  for (;;) {
    const header = sectionHeader(lines[at] ?? '');
    if (header === undefined) {
      return fail('invalid', 'text after a Buzz section is neither a section nor a closing note');
    }
    if (sections.length >= MAX_SECTIONS) return fail('invalid', 'too many Buzz sections in one prompt');
    const read = readSection(text, at, header, budget);
    if (isFailure(read)) return read;
    sections.push(read.section);
    at = read.next;
    while (lines[at] === '') at++;
    if (at >= lines.length || isTrailer(lines[at] ?? '')) return { sections };
  }
}

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
  const lines = text.lines;
  let first = headerLine + 1;
  if (header.form === 'chunks') {
    if (header.close !== undefined && lines[first] === '' && lines[first + 1] === header.close) first++;
    if (header.close !== undefined && lines[first] === header.close) {
      // An empty frame: the V5 native-steer marker before the `<buzz-event>` frame.
      return { section: { header, headerLine, events: [], diagnostics: [] }, next: first + 1 };
    }
    if (lines[first] !== '') return fail('invalid', 'a batch header is not followed by a blank line');
    first++;
  }
  const layout =
    header.era === 'v1'
      ? 'v1'
      : header.era === 'v2'
        ? sproutLayout(lines[first + (header.form === 'chunks' ? 1 : 0)])
        : 'rich';
  if (layout !== 'rich') {
    const plain = readPlainSection(text, first, layout, header.form === 'chunks' ? (header.declared ?? 1) : undefined);
    if (isFailure(plain)) return plain;
    return {
      section: { header, headerLine, events: plain.events, diagnostics: plain.diagnostics },
      next: lines.length,
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
  const lines = text.lines;
  const ends = new SectionEnds(text, first, continuationOf(lines, header));
  const seen = new SeenFields();
  const diagnostics: string[] = [];
  const events: ScrapedEvent[] = [];
  if (header.form === 'single') {
    const read = readRichChunk({ text, budget, ends, nextSeparator: undefined, mayEnd: true, seen }, first);
    if (isFailure(read)) return read;
    return { section: { header, headerLine, events: [read.event], diagnostics: [] }, next: endOf(read.continuation) };
  }
  if (separatorNumber(lines[first] ?? '', true) !== 1) {
    return fail('invalid', 'a batch does not start with its first event separator');
  }
  const declared = header.declared;
  let at = first;
  for (let number = 1; ; number++) {
    const mayEnd = declared === undefined || number >= declared;
    // A block that ends the section before the declared count is reported below.
    const read = readRichChunk({ text, budget, ends, nextSeparator: number + 1, mayEnd, seen }, at + 1);
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
 * What may follow a block's last line in this section: a separator after a blank line; for an XML
 * frame its closing tag (after an optional blank line); for a bracket section the end of the text,
 * or a blank line and then another section or a closing note.
 */
function continuationOf(lines: readonly string[], header: SectionHeader): (after: number) => Continuation | undefined {
  const close = header.close;
  return (after) => {
    const line = lines[after];
    if (line === '') {
      const following = lines[after + 1];
      const number = following === undefined ? undefined : separatorNumber(following, true);
      if (number !== undefined) return { type: 'separator', number, line: after + 1 };
      if (close !== undefined) return following === close ? { type: 'end', next: after + 2 } : undefined;
      if (following === undefined) return { type: 'end', next: after };
      return sectionHeader(following) !== undefined || isTrailer(following) ? { type: 'end', next: after } : undefined;
    }
    if (close !== undefined) return line === close ? { type: 'end', next: after + 1 } : undefined;
    return line === undefined ? { type: 'end', next: after } : undefined;
  };
}
