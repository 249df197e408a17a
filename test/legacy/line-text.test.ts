/** Lines named by their offsets: the same lines as `split('\n')`, read in place. */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { LineText } from '../../src/legacy/line-text.js';
import { numRuns } from '../support/fuzz.js';

/** Each line's offset, as a reader would compute them from `split('\n')`. */
function offsets(text: string): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const line of text.split('\n')) {
    starts.push(at);
    at += line.length + 1;
  }
  return starts;
}

test('lines, their ends and their neighbours, by offset', () => {
  const text = new LineText('ab\n\ncdef\ng\n\nhij');
  // Lines start at 0, 3, 4, 9, 11, 12; `end` is 16.
  expect(text.end).toBe(16);
  expect([0, 3, 4, 9, 11, 12, 16].map((at) => text.line(at))).toEqual(['ab', '', 'cdef', 'g', '', 'hij', undefined]);
  expect([0, 3, 4, 9, 11, 12].map((at) => text.lineEnd(at))).toEqual([2, 3, 8, 10, 11, 15]);
  expect([0, 3, 4, 9, 11, 12, 16].map((at) => text.next(at))).toEqual([3, 4, 9, 11, 12, 16, 16]);
  expect([1, 3, 4, 9, 11, 12, 16].map((at) => text.previous(at))).toEqual([0, 0, 3, 4, 9, 11, 12]);
  expect([0, 3, 4, 9, 11, 12, 16].map((at) => text.isBlank(at))).toEqual([
    false,
    true,
    false,
    false,
    true,
    false,
    false,
  ]);
  expect([3, 4, 9, 11, 12].map((at) => text.followsBlank(at))).toEqual([false, true, false, false, true]);
  expect(text.slice(4, 11)).toBe('cdef\ng');
  expect(text.slice(0, 12)).toBe('ab\n\ncdef\ng\n');
  expect(text.slice(12, 16)).toBe('hij');
});

test('an empty last line and an empty first line', () => {
  const text = new LineText('\nab\n');
  // Lines start at 0, 1, 4; `end` is 5.
  expect([0, 1, 4, 5].map((at) => text.line(at))).toEqual(['', 'ab', '', undefined]);
  expect([0, 1, 4].map((at) => text.isBlank(at))).toEqual([true, false, true]);
  expect([1, 4].map((at) => text.followsBlank(at))).toEqual([true, false]);
  expect(text.next(4)).toBe(5);
  expect(text.previous(1)).toBe(0);
  expect(text.previous(5)).toBe(4);
  expect(new LineText('a\nb').followsBlank(2)).toBe(false);
  expect(new LineText('').line(0)).toBe('');
  expect(new LineText('').isBlank(0)).toBe(true);
  expect(new LineText('').next(0)).toBe(1);
});

test('a line starts with a prefix, or is a value, without reading into the next line', () => {
  const text = new LineText('Tags: [\n</x>\n</x>y\n</x');
  expect(text.startsWith(0, 'Tags: [')).toBe(true);
  expect(text.startsWith(0, 'Tags: [\n')).toBe(true); // (callers pass no `\n`: shown for the record)
  expect(text.startsWith(8, 'Tags: [')).toBe(false);
  expect(text.startsWith(text.end, 'T')).toBe(false);
  expect([8, 13, 19].map((at) => text.is(at, '</x>'))).toEqual([true, false, false]);
  expect(new LineText('a\n</x>').is(2, '</x>')).toBe(true);
  expect(new LineText('</x>').is(0, '</x>')).toBe(true);
  expect(new LineText('</x>').is(5, '</x>')).toBe(false);
});

/** Every line after `from` that starts with `prefix`, listed with nextLineStartingWith. */
function linesStartingWith(text: LineText, prefix: string, from: number): number[] {
  const found: number[] = [];
  for (let at = text.nextLineStartingWith(prefix, from); at !== -1; at = text.nextLineStartingWith(prefix, at)) {
    found.push(at);
  }
  return found;
}

test('lines that start with a prefix: only after `from`, whole prefix, at a line start, in order', () => {
  const text = new LineText('Tags: [a]\nTags: [b]\nTags:[c]\nx Tags: [d]\nTags: [\n\nT\nTags: [e]');
  // Lines start at 0, 10, 20, 29, 41, 49, 50, 52.
  expect(linesStartingWith(text, 'Tags: [', 0)).toEqual([10, 41, 52]);
  expect(linesStartingWith(text, 'Tags: [', 9)).toEqual([10, 41, 52]);
  expect(linesStartingWith(text, 'Tags: [', 10)).toEqual([41, 52]);
  expect(linesStartingWith(text, 'Tags: [', 41)).toEqual([52]);
  expect(linesStartingWith(text, 'Tags: [', 52)).toEqual([]);
  expect(new LineText('').nextLineStartingWith('Tags: [', 0)).toBe(-1);
  // A hit in the middle of a line is passed over, and the search goes on after it.
  expect(new LineText('xTags: [\nTags: [').nextLineStartingWith('Tags: [', 0)).toBe(9);
});

test('the next line after a short or long line: the same offset next gives', () => {
  const short = new LineText('Tags: []\nParsed: x\n');
  expect(short.nextOfShort(7)).toBe(9);
  expect(short.nextOfShort(9)).toBe(short.next(9));
  expect(short.nextOfShort(19)).toBe(short.end);
  const long = new LineText(`Tags: [${'x'.repeat(100)}]\nnext`);
  expect(long.nextOfShort(7)).toBe(109);
  // A line of exactly 32 characters from the start: its `\n` is just past the part read in place.
  const edge = new LineText(`${'y'.repeat(32)}\nz`);
  expect(edge.nextOfShort(0)).toBe(33);
  expect(new LineText('y'.repeat(40)).nextOfShort(0)).toBe(41);
  expect(new LineText('abc').nextOfShort(0)).toBe(4);
});

test('every line read by offset is the line split gives', () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ unit: fc.constantFrom('a', 'b', '\n'), maxLength: 80 }), { minLength: 1, maxLength: 8 }),
      (parts) => {
        const source = parts.join('\n');
        const text = new LineText(source);
        const lines = source.split('\n');
        const starts = offsets(source);
        // Walking with `next` visits exactly the lines' offsets, then `end`.
        const walked: number[] = [];
        for (let at = 0; at < text.end; at = text.next(at)) walked.push(at);
        expect(walked).toEqual(starts);
        starts.forEach((at, index) => {
          expect(text.line(at)).toBe(lines[index]);
          expect(text.isBlank(at)).toBe(lines[index] === '');
          if (index > 0) {
            expect(text.previous(at)).toBe(starts[index - 1]);
            expect(text.followsBlank(at)).toBe(lines[index - 1] === '');
          }
        });
        expect(text.previous(text.end)).toBe(starts.at(-1));
        // From any offset, the short-line reader finds the same next line.
        for (let at = 0; at <= text.end; at++) expect(text.nextOfShort(at)).toBe(text.next(at));
      },
    ),
    { numRuns },
  );
});
