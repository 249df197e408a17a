/**
 * `checkInputBounds` on its own: every object and array counts as a value (not only the scalars in
 * it), and an object's keys are bounded by `maxObjectKeys`. The read paths over it are tested in test/envelope/limits.test.ts and
 * test/draft/prechecks.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { checkInputBounds } from '../../src/shared/input-bounds.js';
import { DEFAULT_LIMITS, resolveLimits } from '../../src/limits.js';
import { ENVELOPE_KEY_NAMES } from '../../src/envelope/schema.js';

const refusal = (value: unknown, maxNodes: number): [string, string, string] | undefined => {
  const error = checkInputBounds(value, resolveLimits({ maxNodes }), ENVELOPE_KEY_NAMES);
  return error === undefined ? undefined : [error.code, error.path, error.message];
};

const tooManyValues = (maxNodes: number): [string, string, string] => [
  'limit_exceeded',
  '/_meta/buzz',
  `/_meta/buzz: _meta.buzz holds more than limits.maxNodes (${String(maxNodes)}) values`,
];

/** An object with `count` keys `k0`, `k1`, … whose values are `0`. */
const objectWithKeys = (count: number): Record<string, number> =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${String(i)}`, 0]));

describe('checkInputBounds counts objects and arrays as values', () => {
  test('an empty object or array as the last value: at the count it passes, one less refuses', () => {
    // The root and the empty container: two values, no scalar after them.
    for (const value of [{ a: {} }, { a: [] }, [{}], [[]]]) {
      expect(refusal(value, 2), JSON.stringify(value)).toBeUndefined();
      expect(refusal(value, 1), JSON.stringify(value)).toEqual(tooManyValues(1));
    }
  });

  test('nested empty containers only: each level is one value', () => {
    const nested = { a: [{ b: [[]] }] }; // root, array, object, array, array: 5 values
    expect(refusal(nested, 5)).toBeUndefined();
    expect(refusal(nested, 4)).toEqual(tooManyValues(4));
  });

  test('the root alone is one value', () => {
    expect(refusal({}, 1)).toBeUndefined();
    expect(refusal([], 1)).toBeUndefined();
    expect(refusal('text', 1)).toBeUndefined();
  });
});

describe('checkInputBounds bounds the keys of an object', () => {
  test('an object of more than maxObjectKeys keys is refused, at the bound it passes', () => {
    const limits = resolveLimits({ maxObjectKeys: 2048 });
    expect(checkInputBounds({ large: objectWithKeys(1024) }, DEFAULT_LIMITS, ENVELOPE_KEY_NAMES)).toBeUndefined();
    expect(checkInputBounds({ large: objectWithKeys(1500) }, limits, ENVELOPE_KEY_NAMES)).toBeUndefined();
    expect(checkInputBounds({ large: objectWithKeys(1500) }, DEFAULT_LIMITS, ENVELOPE_KEY_NAMES)?.message).toBe(
      '/_meta/buzz/*: an object holds more than limits.maxObjectKeys (1024) keys', // a received key is never echoed,
    );
  });
});
