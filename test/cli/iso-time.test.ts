/**
 * `isoTime`, the event time `inspect` prints: exactly what `Date#toISOString` writes (without
 * `.000`) for every time a Date holds, whole or not, and `out of range` beyond.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isoTime } from '../../src/cli/iso-time.js';

/** The reference: what `Date` writes. */
function dateText(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? 'out of range' : date.toISOString().replace('.000Z', 'Z');
}

const LIMIT = 8.64e12;

describe('isoTime', () => {
  test('exact text at the edges of each field and of the Date range', () => {
    expect(isoTime(0)).toBe('1970-01-01T00:00:00Z');
    expect(isoTime(1_785_840_000)).toBe('2026-08-04T10:40:00Z');
    expect(isoTime(86_399)).toBe('1970-01-01T23:59:59Z');
    expect(isoTime(86_400)).toBe('1970-01-02T00:00:00Z');
    expect(isoTime(36_610)).toBe('1970-01-01T10:10:10Z');
    expect(isoTime(32_949)).toBe('1970-01-01T09:09:09Z');
    expect(isoTime(-1)).toBe('1969-12-31T23:59:59Z');
    expect(isoTime(LIMIT)).toBe('+275760-09-13T00:00:00Z');
    expect(isoTime(-LIMIT)).toBe('-271821-04-20T00:00:00Z');
    expect(isoTime(LIMIT + 1)).toBe('out of range');
    expect(isoTime(-LIMIT - 1)).toBe('out of range');
    expect(isoTime(Number.MAX_SAFE_INTEGER)).toBe('out of range');
  });

  test('times that are not whole seconds keep their milliseconds; NaN and infinities are out of range', () => {
    expect(isoTime(1.5)).toBe('1970-01-01T00:00:01.500Z');
    expect(isoTime(-0.25)).toBe('1969-12-31T23:59:59.750Z');
    expect(isoTime(LIMIT - 0.5)).toBe('+275760-09-12T23:59:59.500Z');
    expect(isoTime(Number.NaN)).toBe('out of range');
    expect(isoTime(Number.POSITIVE_INFINITY)).toBe('out of range');
    expect(isoTime(Number.NEGATIVE_INFINITY)).toBe('out of range');
  });

  test('the same day twice, another day, then the first again (the day is remembered, not stuck)', () => {
    expect([isoTime(100), isoTime(200), isoTime(86_500), isoTime(300)]).toEqual([
      '1970-01-01T00:01:40Z',
      '1970-01-01T00:03:20Z',
      '1970-01-02T00:01:40Z',
      '1970-01-01T00:05:00Z',
    ]);
  });

  test('every whole second a Date holds, and any number: the same text as Date', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -LIMIT, max: LIMIT }), fc.integer({ min: 0, max: 4e9 }), fc.double()),
        (seconds) => {
          expect(isoTime(seconds)).toBe(dateText(seconds));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
