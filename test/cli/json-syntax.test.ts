/**
 * The scanner behind the command's `not JSON` positions: it agrees with `JSON.parse` on which
 * texts are JSON (properties over JSON, cut JSON and arbitrary text), and names the first wrong
 * character, or the end when the text stops inside a value.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { jsonSyntaxError } from '../../src/cli/json-syntax.js';
import { numRuns } from '../support/fuzz.js';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('jsonSyntaxError', () => {
  test('agrees with JSON.parse on JSON, cut JSON, JSON with a character changed, and any text', () => {
    const json = fc.json({ maxDepth: 4 });
    const text = fc.oneof(
      json,
      json.chain((t) => fc.nat(t.length).map((n) => t.slice(0, n))),
      json.chain((t) =>
        fc
          .tuple(fc.nat(Math.max(0, t.length - 1)), fc.string({ minLength: 1, maxLength: 1 }))
          .map(([at, c]) => t.slice(0, at) + c + t.slice(at + 1)),
      ),
      fc.string(),
      fc.string({ unit: fc.constantFrom(...Array.from('{}[]",:-+.eE0123456789 \\u\ntrufalsn')) }),
    );
    fc.assert(
      fc.property(text, (t) => {
        const error = jsonSyntaxError(t);
        expect(error === undefined).toBe(parses(t));
        if (error !== undefined) {
          expect(error.offset).toBeGreaterThanOrEqual(0);
          expect(error.offset).toBeLessThanOrEqual(t.length);
          expect(error.truncated).toBe(error.offset === t.length);
        }
      }),
      { numRuns },
    );
  });

  test.each([
    ['hello world', 0, false],
    ['{"a":1,}', 7, false],
    ['{"a" 1}', 5, false],
    ['[1 2]', 3, false],
    ['{"a":1}x', 7, false],
    ['{"a":tru}', 8, false],
    ['"a\\qb"', 3, false],
    ['"a\u0001"', 2, false],
    ['01', 1, false],
    ['-', 1, true],
    ['1.', 2, true],
    ['{"a":[1,2', 9, true],
    ['"\\u12', 5, true],
    ['  ', 2, true],
  ])('%j breaks at %i (truncated %s)', (text, offset, truncated) => {
    expect(jsonSyntaxError(text)).toEqual({ offset, truncated });
  });

  test('a nesting far deeper than any recursion limit is scanned without recursion', () => {
    expect(jsonSyntaxError('['.repeat(200_000) + ']'.repeat(200_000))).toBeUndefined();
    expect(jsonSyntaxError('['.repeat(200_000))).toEqual({ offset: 200_000, truncated: true });
  });
});
