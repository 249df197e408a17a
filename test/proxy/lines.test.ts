/**
 * The relay's line splitter (src/proxy/lines.ts): lines come out as they went in, however the
 * input is cut into chunks; a line over the bound comes out as its length and its two ends, never
 * held whole; and what `recoverEnvelope` finds in those ends.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type Line, LineSplitter, type LongLine } from '../../src/proxy/lines.js';

/** The head the splitter keeps of a line too long to relay: 64 KiB. */
const KEPT_HEAD_BYTES = 64 * 1024;
import { recoverEnvelope } from '../../src/proxy/recover.js';
import { numRuns } from '../support/fuzz.js';

/** Everything the splitter yields for `chunks`, lines as text, long lines as their length. */
function split(chunks: readonly Buffer[], max: number): (string | { long: number; head: string; tail: string })[] {
  const splitter = new LineSplitter(max);
  const out: (Line | LongLine)[] = [];
  for (const chunk of chunks) out.push(...splitter.push(chunk));
  const last = splitter.flush();
  if (last !== undefined) out.push(last);
  return out.map((line) =>
    line.kind === 'line'
      ? line.bytes.toString('latin1')
      : { long: line.length, head: line.head.toString('latin1'), tail: line.tail.toString('latin1') },
  );
}

/** `text` cut at `cuts` (positions, any order). */
function cut(text: string, cuts: readonly number[]): Buffer[] {
  const bytes = Buffer.from(text, 'latin1');
  const points = [...new Set(cuts.map((at) => at % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

describe('LineSplitter', () => {
  test('lines within the bound come out whole, with and without a last newline', () => {
    expect(split([Buffer.from('{"a":1}\n{"b":2}\r\n\n{"c"'), Buffer.from(':3}')], 100)).toEqual([
      '{"a":1}',
      '{"b":2}\r',
      '',
      '{"c":3}',
    ]);
    expect(split([Buffer.from('x\n')], 100)).toEqual(['x']);
    expect(split([], 100)).toEqual([]);
  });

  test('raw is the line with its newline, also when the input did not end with one', () => {
    const splitter = new LineSplitter(100);
    const [first] = [...splitter.push(Buffer.from('{"a":1}\n{"b"'))];
    expect(first?.kind === 'line' && first.raw.toString()).toBe('{"a":1}\n');
    expect([...splitter.push(Buffer.from(':2}'))]).toEqual([]);
    const last = splitter.flush();
    expect(last?.kind === 'line' && last.raw.toString()).toBe('{"b":2}\n');
  });

  test('a line over the bound comes out as its length and ends, and the next line is whole again', () => {
    const long = `{"id":7,"pad":"${'x'.repeat(200)}"}`;
    expect(split(cut(`${long}\nok\n`, [5, 50, 150]), 100)).toEqual([
      { long: long.length, head: long, tail: long },
      'ok',
    ]);
    expect(split([Buffer.from('y'.repeat(101))], 100)).toEqual([
      { long: 101, head: 'y'.repeat(101), tail: 'y'.repeat(101) },
    ]);
    expect(split([Buffer.from('y'.repeat(100))], 100)).toEqual(['y'.repeat(100)]);
  });

  test('of a very long line only the first 64 KiB and the last 256 bytes are kept', () => {
    const line = 'h'.repeat(KEPT_HEAD_BYTES) + 'm'.repeat(300_000) + 't'.repeat(256);
    const [long] = split(cut(line, [1000, 70_000, 200_000, 366_000]), 1024);
    expect(long).toEqual({ long: line.length, head: 'h'.repeat(KEPT_HEAD_BYTES), tail: 't'.repeat(256) });
  });

  test('property: any cut of the input gives the same lines', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'b', '\n', '\r', '{'), maxLength: 40 }), { maxLength: 8 }),
        fc.array(fc.nat(400), { maxLength: 6 }),
        (parts, cuts) => {
          const text = parts.join('\n');
          const expected = text.split('\n');
          if (expected.at(-1) === '') expected.pop();
          const got = split(cut(text, cuts), 30);
          expect(got).toEqual(
            expected.map((line) =>
              line.length > 30 ? { long: line.length, head: line, tail: line.slice(-256) } : line,
            ),
          );
        },
      ),
      { numRuns },
    );
  });
});

describe('recoverEnvelope', () => {
  test('finds the id and the kind among the first keys', () => {
    expect(recoverEnvelope('{"jsonrpc":"2.0","id":12,"result":{"pad":"xxx', '')).toEqual({ id: 12, hasMethod: false });
    expect(recoverEnvelope(' { "id" : "a\\"b" , "method":"x","params":{', '')).toEqual({ id: 'a"b', hasMethod: true });
    expect(recoverEnvelope('{"jsonrpc":"2.0","method":"session/update","params":{"x', '')).toEqual({
      id: undefined,
      hasMethod: true,
    });
    expect(recoverEnvelope('{"a":{"id":1},"b":[1,{"id":2}],"id":3,', '')).toEqual({ id: 3, hasMethod: false });
  });

  test('finds an id written last, at the end of the line', () => {
    expect(recoverEnvelope('{"jsonrpc":"2.0","result":{"pad":"xx', 'xx"}}, "id" : 5 }\r')).toEqual({
      id: 5,
      hasMethod: false,
    });
    expect(recoverEnvelope('{"result":"', 'x"},"id":"req-9"}')).toEqual({ id: 'req-9', hasMethod: false });
  });

  test('finds nothing where nothing can be told', () => {
    expect(recoverEnvelope('this is not JSON', 'this is not JSON')).toEqual({ id: undefined, hasMethod: false });
    expect(recoverEnvelope('{"result":"', 'x"id":5}')).toEqual({ id: undefined, hasMethod: false });
    expect(recoverEnvelope('{"id":{"x":1},"result":', '')).toEqual({ id: undefined, hasMethod: false });
    expect(recoverEnvelope('{"id":tru', '')).toEqual({ id: undefined, hasMethod: false });
    expect(recoverEnvelope('', '"id":"a\\"b"}')).toEqual({ id: undefined, hasMethod: false });
  });

  test('property: on a cut JSON-RPC response it finds the id whenever the cut is after it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.string({ maxLength: 10 })), fc.jsonValue(), fc.nat(), (id, result, at) => {
        const text = JSON.stringify({ jsonrpc: '2.0', id, result });
        const idEnd = JSON.stringify({ jsonrpc: '2.0', id }).length - 1;
        const cutAt = at % (text.length + 1);
        const found = recoverEnvelope(text.slice(0, cutAt), '');
        if (cutAt > idEnd) expect(found.id).toEqual(id);
        else expect(found.id === undefined || found.id === id).toBe(true);
        expect(found.hasMethod).toBe(false);
      }),
      { numRuns },
    );
  });
});
