/**
 * How a section's candidate ends are found: ends before a separator from the block start after it
 * (walking back), the section's own end from the Tags lines. Checked against a forward reading of
 * every Tags line (the definition), on Buzz-shaped line soup.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { type SectionEndCheck, BlockEndCandidates } from '../../src/legacy/section-ends.js';
import { startsRichBlock } from '../../src/legacy/head.js';
import { separatorNumberIn } from '../../src/legacy/headers.js';
import { LineText } from '../../src/legacy/line-text.js';
import { numRuns } from '../support/fuzz.js';

const HEX = 'c4b997143b7bbd8511f29a9911f880182270e4aaf9f8c3735106461f48681e8a';

/** A test section end: the end of the text, or a blank line then a `[` header or a note. */
function sectionEndCheckOf(text: LineText): SectionEndCheck {
  return (after) => {
    if (after >= text.end) return { type: 'end', next: after };
    if (!text.isBlank(after)) return undefined;
    const next = after + 1;
    return text.startsWith(next, '[') || text.startsWith(next, 'Note: ') ? { type: 'end', next: after } : undefined;
  };
}

interface Listed {
  readonly tagsLine: number;
  readonly next: string;
}

/** The definition, read forward from every Tags line after `from`. */
function reference(text: LineText, from: number): Listed[] {
  const found: Listed[] = [];
  const end = sectionEndCheckOf(text);
  for (let at = 0; at < text.end; at = text.next(at)) {
    if (at <= from || !text.startsWith(at, 'Tags: [')) continue;
    const line = text.next(at);
    const after = text.startsWith(line, 'Parsed: ') ? text.next(line) : line;
    if (text.isBlank(after)) {
      const separator = after + 1;
      const separatorEnd = text.lineEnd(separator);
      const number = separatorNumberIn(text.text, separator, separatorEnd, true);
      if (number !== undefined) {
        const block = separatorEnd + 1;
        if (startsRichBlock(text, block)) found.push({ tagsLine: at, next: `sep ${number} ${separator} ${block}` });
        continue;
      }
    }
    const ending = end(after);
    if (ending !== undefined) found.push({ tagsLine: at, next: `end ${ending.next}` });
  }
  return found;
}

/** Every candidate BlockEndCandidates lists (asked from the text's start), separators 1–9 and the end, in line order. */
function listed(ends: BlockEndCandidates): Listed[] {
  const all: Listed[] = [];
  for (let number = 1; number <= 9; number++) {
    for (const { tagsLine, continuation } of ends.after(-1, number, false)) {
      if (continuation.type === 'separator') {
        all.push({ tagsLine, next: `sep ${continuation.number} ${continuation.line} ${continuation.block}` });
      }
    }
  }
  for (const { tagsLine, continuation } of ends.after(-1, undefined, true)) {
    if (continuation.type === 'end') all.push({ tagsLine, next: `end ${continuation.next}` });
  }
  return all.sort((a, b) => a.tagsLine - b.tagsLine);
}

const soupLine = fc.oneof(
  fc.constantFrom(
    'Tags: []',
    'Tags: [["p","x"]]',
    `Tags: [${'x'.repeat(40)}]`,
    'Tags: [bad',
    'Tags:[]',
    'Parsed: x',
    'Parsed: Tags: []',
    '',
    '',
    '--- Event 2 (@mention) ---',
    '--- Event 3 (x) ---',
    '--- Event 2 ---',
    '--- Event 12 (a) (b) ---',
    '-',
    `Event ID: ${HEX}`,
    `Event ID: ${HEX.toUpperCase()}`,
    `Event ID: ${HEX.slice(1)}`,
    'Channel: eng',
    'Channel: ',
    `x--- Event 2 (@mention) ---`,
    `--- Event 2 (@mention) ---Event ID: ${HEX}`,
    `xEvent ID: ${HEX}`,
    'xChannel: eng',
    '[Buzz event: x]',
    'Note: x',
    'content',
  ),
  fc.string({ unit: fc.constantFrom('a', '-', ' ', 'T', 'C', '['), maxLength: 12 }),
);

/** Mostly `right`, sometimes one of `wrong`: each line of a structure is usually the real thing. */
function mostly<T>(right: T, ...wrong: T[]): fc.Arbitrary<T> {
  return fc.oneof({ weight: 4, arbitrary: fc.constant(right) }, { weight: 1, arbitrary: fc.constantFrom(...wrong) });
}

/** The lines of a block end and the next block start, each line often right and sometimes not. */
const structure = fc
  .tuple(
    mostly('Tags: []', 'Tags: [["p","x"]]', 'Tags: [bad', 'Tags:[]', 'x'),
    mostly<string[]>([], ['Parsed: y'], ['Parsed: y', 'Parsed: y']),
    mostly([''], [], ['', ''], ['x']),
    mostly('--- Event 2 (@mention) ---', '--- Event 3 (a) ---', '--- Event 2 ---', '--- Event 2 (x)', '-'),
    mostly('\n', 'x', '\n\n'),
    mostly(`Event ID: ${HEX}`, `Event ID: ${HEX.slice(1)}`, 'Event ID: x'),
    mostly('\nChannel: eng', 'Channel: eng', '\nchannel: eng', ''),
  )
  .map(([tags, parsed, blank, separator, join, id, channel]) =>
    [tags, ...parsed, ...blank, `${separator}${join}${id}${channel}`].join('\n'),
  );

test('the candidates are those a forward reading of every Tags line finds', () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(soupLine, structure), { maxLength: 40 }), fc.nat(), (lines, pick) => {
      const text = new LineText(lines.join('\n'));
      const starts: number[] = [];
      for (let at = 0; at < text.end; at = text.next(at)) starts.push(at);
      const from = starts[pick % starts.length] ?? 0;
      expect(listed(new BlockEndCandidates(text, from, sectionEndCheckOf(text)))).toEqual(reference(text, from));
    }),
    { numRuns },
  );
});

/** A block start: a valid Event ID line and a Channel line. */
const START = `Event ID: ${HEX}\nChannel: eng`;

function ends(source: string, from = 0): Listed[] {
  const text = new LineText(source);
  return listed(new BlockEndCandidates(text, from, sectionEndCheckOf(text)));
}

test('a block start is an Event ID line that ends after its 64 digits, then a Channel line', () => {
  expect(startsRichBlock(new LineText(START), 0)).toBe(true);
  expect(startsRichBlock(new LineText(`x\n${START}`), 2)).toBe(true);
  // The Channel label on the Event ID line itself, right after the digits: one line, no block start.
  expect(startsRichBlock(new LineText(`Event ID: ${HEX}xChannel: eng`), 0)).toBe(false);
});

test('an end before a separator is found from the block start below it, with or without a Parsed line', () => {
  expect(ends(`head\nTags: []\n\n--- Event 2 (x) ---\n${START}`)).toEqual([{ tagsLine: 5, next: 'sep 2 15 35' }]);
  expect(ends(`head\nTags: []\nParsed: y\n\n--- Event 2 (x) ---\n${START}`)).toEqual([
    { tagsLine: 5, next: 'sep 2 25 45' },
  ]);
});

test('no end before a separator unless every line of the walk back is there', () => {
  // No blank line; a blank line but no Tags line; a Parsed line with no Tags line above it.
  expect(ends(`head\nTags: []\n--- Event 2 (x) ---\n${START}`)).toEqual([]);
  expect(ends(`head\nx\n\n--- Event 2 (x) ---\n${START}`)).toEqual([]);
  expect(ends(`head\nx\nParsed: y\n\n--- Event 2 (x) ---\n${START}`)).toEqual([]);
  // A block start that is not at a line start, and one whose separator is untagged (V1 form).
  expect(ends(`head\nTags: []\n\n--- Event 2 (x) ---x${START}`)).toEqual([]);
  expect(ends(`head\nTags: []\n\n--- Event 2 ---\n${START}`)).toEqual([]);
  // A Tags line at `from` or before it is not after `from`.
  expect(ends(`Tags: []\n\n--- Event 2 (x) ---\n${START}`)).toEqual([]);
  expect(ends(`head\nTags: []\n\n--- Event 2 (x) ---\n${START}`, 5)).toEqual([]);
  // A separator on the text's second line: nothing above it to walk back over.
  expect(ends(`\n--- Event 2 (x) ---\n${START}`)).toEqual([]);
});

test('a Channel line too close to the start for a block start above it is passed over', () => {
  expect(ends('Channel: eng\nChannel: eng')).toEqual([]);
  expect(ends(`${'x'.repeat(80)}\nChannel: eng`, 1)).toEqual([]);
});

test('whether a separator follows a Tags line, whatever comes after it', () => {
  const source = 'head\nTags: []\n\n--- Event 2 (x) ---\ngarbage\nTags: [bad\n\n--- Event 3 (x) ---\nmore';
  const text = new LineText(source);
  const sections = new BlockEndCandidates(text, 0, sectionEndCheckOf(text));
  expect(sections.separatorFollows(0, 2)).toBe(true);
  // After that Tags line; a number no separator has; a separator whose Tags line does not parse.
  expect(sections.separatorFollows(5, 2)).toBe(false);
  expect(sections.separatorFollows(0, 4)).toBe(false);
  expect(sections.separatorFollows(0, 3)).toBe(false);
  // With a Parsed line between; with no blank line.
  const parsed = new LineText('head\nTags: []\nParsed: y\n\n--- Event 2 (x) ---\n');
  expect(new BlockEndCandidates(parsed, 0, sectionEndCheckOf(parsed)).separatorFollows(0, 2)).toBe(true);
  const joined = new LineText('head\nTags: []\n--- Event 2 (x) ---\n');
  expect(new BlockEndCandidates(joined, 0, sectionEndCheckOf(joined)).separatorFollows(0, 2)).toBe(false);
});

test('a line after the Tags line is a Parsed line only when it starts with `Parsed: `', () => {
  expect(ends('head\nTags: []\nParsed: y\n\nNote: x')).toEqual([{ tagsLine: 5, next: 'end 24' }]);
  expect(ends('head\nTags: []\nPx\n\nNote: x')).toEqual([]);
  expect(ends('head\nTags: []\nParsed:y\n\nNote: x')).toEqual([]);
});

test('the candidates after a line, both kinds merged in line order, the line itself excluded', () => {
  const source = `head\nTags: []\n\nNote: a\nTags: []\n\n--- Event 2 (x) ---\n${START}\nTags: []\n\n[Buzz x]`;
  const text = new LineText(source);
  const sections = new BlockEndCandidates(text, 0, sectionEndCheckOf(text));
  const lines = (line: number, separator: number | undefined, mayEnd: boolean) =>
    [...sections.after(line, separator, mayEnd)].map((candidate) => [candidate.tagsLine, candidate.continuation.type]);
  // Tags lines at 5, 23 (before separator 2) and 141.
  expect(lines(-1, 2, true)).toEqual([
    [5, 'end'],
    [23, 'separator'],
    [141, 'end'],
  ]);
  expect(lines(5, 2, true)).toEqual([
    [23, 'separator'],
    [141, 'end'],
  ]);
  expect(lines(23, 2, true)).toEqual([[141, 'end']]);
  expect(lines(-1, 2, false)).toEqual([[23, 'separator']]);
  expect(lines(-1, undefined, true)).toEqual([
    [5, 'end'],
    [141, 'end'],
  ]);
  expect(lines(-1, 3, false)).toEqual([]);
  // Two ends before the separator's candidate.
  const two = new LineText(`head\nTags: []\n\nNote: a\nTags: []\n\nNote: b\nTags: []\n\n--- Event 2 (x) ---\n${START}`);
  const twoEnds = new BlockEndCandidates(two, 0, sectionEndCheckOf(two));
  expect([...twoEnds.after(-1, 2, true)].map((candidate) => [candidate.tagsLine, candidate.continuation.type])).toEqual(
    [
      [5, 'end'],
      [23, 'end'],
      [41, 'separator'],
    ],
  );
});

test('a Tags line asked about again gives the same tags; one that does not parse gives none again', () => {
  const text = new LineText('head\nTags: [["p","x"]]\nTags: [bad\n\nNote: x');
  const sections = new BlockEndCandidates(text, 0, sectionEndCheckOf(text));
  for (let round = 0; round < 2; round++) {
    expect(sections.tagsAt(5)).toEqual([['p', 'x']]);
    expect(sections.tagsAt(22)).toBeUndefined();
  }
});

test('the section-end check is never asked about a blank line followed by a line that starts with `-`', () => {
  // Such a line ends no section; an end before a separator there is found from the block below it.
  const source = `head\nTags: []\n\n--- Event 2 (x) ---\n${START}\nTags: []\n\n-x\nTags: []\n\nNote: y`;
  const text = new LineText(source);
  const asked: string[] = [];
  const ends = new BlockEndCandidates(text, 0, (after) => {
    asked.push(text.line(after + 1) ?? '');
    return { type: 'end', next: after };
  });
  expect(asked).toEqual(['Note: y']);
  expect([...ends.after(-1, 2, true)].map((candidate) => candidate.continuation.type)).toEqual(['separator', 'end']);
});
