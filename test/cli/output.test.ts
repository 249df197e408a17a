/**
 * `OutputLines`, the byte buffer behind `inspect --json`: whatever the line lengths, characters
 * and buffer size, its bytes are exactly the lines' UTF-8 with a newline after each.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { OutputLines } from '../../src/cli/output.js';

const utf8 = (lines: readonly string[]) => Buffer.from(lines.map((line) => `${line}\n`).join(''));

function collected(lines: readonly string[], chunkBytes?: number): Buffer {
  const output = chunkBytes === undefined ? new OutputLines() : new OutputLines(chunkBytes);
  for (const line of lines) output.push(line);
  const chunks = output.chunks();
  // No line is split between two chunks: each one decodes on its own.
  for (const chunk of chunks) {
    expect(Buffer.from(chunk).toString('utf8').endsWith('\n') || chunk.length === 0).toBe(true);
  }
  return Buffer.concat(chunks);
}

describe('OutputLines', () => {
  test('nothing pushed: no bytes', () => {
    expect(collected([])).toEqual(Buffer.alloc(0));
  });

  test('lines of every length and character, in buffers of every size: the UTF-8 of the lines', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 12 })),
        fc.integer({ min: 1, max: 16 }),
        (lines, size) => {
          expect(collected(lines, size)).toEqual(utf8(lines));
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a line that fills a buffer exactly, and lines longer than a buffer', () => {
    // 3 bytes a character, plus the newline: 4 bytes fill a buffer of 4.
    expect(collected(['€', '€'], 4)).toEqual(utf8(['€', '€']));
    expect(collected(['abc', 'abcdefghij', '😀😀', 'x'], 4)).toEqual(utf8(['abc', 'abcdefghij', '😀😀', 'x']));
  });

  test('the default buffer holds many lines, and a line longer than it', () => {
    const long = 'é'.repeat(600_000);
    const lines = ['{"a":1}', long, '{"b":2}', long];
    expect(collected(lines).equals(utf8(lines))).toBe(true);
  });
});
