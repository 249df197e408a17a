/** The line index of a text: offsets asked for in any order, slices, and the prefix search. */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { LineText } from '../../src/legacy/line-text.js';
import { numRuns } from '../support/fuzz.js';

/** Offsets as a reader would compute them from scratch: each line's start, then one past the end. */
function offsets(text: string): number[] {
  const starts = [0];
  for (const line of text.split('\n')) starts.push((starts.at(-1) ?? 0) + line.length + 1);
  return starts;
}

test('offsets in any order, forward, back and from the start', () => {
  const text = new LineText('ab\n\ncdef\ng\n\nhij');
  // Lines start at 0, 3, 4, 9, 11, 12; one past the end is 16.
  expect([5, 1, 6, 0, 3, 2, 4].map((index) => text.start(index))).toEqual([12, 3, 16, 0, 9, 4, 11]);
  expect(text.slice(2, 4)).toBe('cdef\ng');
  expect(text.slice(0, 5)).toBe('ab\n\ncdef\ng\n');
  expect(text.slice(5, 6)).toBe('hij');
});

test('a walk back that is shorter from the start takes it', () => {
  const text = new LineText(['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff'].join('\n'));
  expect(text.start(5)).toBe(20);
  expect(text.start(1)).toBe(2);
  expect(text.start(4)).toBe(14);
  expect(text.start(3)).toBe(9);
});

test('any order of offsets equals the offsets computed from scratch', () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ unit: fc.constantFrom('a', 'b', '\n') }), { minLength: 1, maxLength: 8 }),
      fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
      (parts, picks) => {
        const source = parts.join('\n');
        const text = new LineText(source);
        const expected = offsets(source);
        for (const pick of picks) {
          const index = pick % expected.length;
          expect(text.start(index)).toBe(expected[index]);
        }
      },
    ),
    { numRuns },
  );
});

test('lines that start with a prefix: only after `from`, whole prefix, in order', () => {
  const text = new LineText('Tags: [a]\nTags: [b]\nTags:[c]\nx Tags: [d]\nTags: [\n\nT\nTags: [e]');
  expect(text.linesStartingWith('Tags: [', 0)).toEqual([1, 4, 7]);
  expect(text.linesStartingWith('Tags: [', -1)).toEqual([0, 1, 4, 7]);
  expect(text.linesStartingWith('Tags: [', 4)).toEqual([7]);
  expect(text.linesStartingWith('Tags: [', 7)).toEqual([]);
  expect(new LineText('').linesStartingWith('Tags: [', -1)).toEqual([]);
});
