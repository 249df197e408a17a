/**
 * `canonicalJson` against the independent RFC 8785 implementation `canonicalize` on integer-only
 * JSON (property), plus exact-value tests for what Buzz's subset rejects.
 */
import { fc, test as fcTest } from '@fast-check/vitest';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { canonicalJson } from '../../src/index.js';
import { numRuns } from '../support/fuzz.js';
import { thrownBuzzError } from '../support/thrown.js';

// canonicalize is CommonJS whose typings claim an ES default export; require() gives the function itself.
const canonicalize = createRequire(import.meta.url)('canonicalize') as (value: unknown) => string | undefined;

/** Characters where escaping or UTF-16 ordering goes wrong first. */
const TRICKY_UNITS = [
  '"',
  '\\',
  '/',
  '\u0000',
  '\u0007',
  '\b',
  '\f',
  '\n',
  '\r',
  '\t',
  '\u001f',
  '\u007f',
  '\u0080',
  '\u00e9',
  '\u2028',
  '\u2029',
  '\u20ac',
  '\ufb01',
  '\uffff',
  '\ud83d\ude00',
  '\ud800',
  '\udfff',
  'a',
  'Z',
  '_',
];

const trickyString = fc.string({ unit: fc.constantFrom(...TRICKY_UNITS), maxLength: 6 });
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  trickyString,
);
/** Keys collide often (sorting matters) and include the own-`__proto__` case. */
const key = fc.oneof(
  fc.constantFrom('__proto__', 'a', 'b', 'A', '€', '😀', '\uffff', 'é', 'e', '', 'constructor', 'toString'),
  anyString,
);
const integer = fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(0, -0));

/** Integer-only JSON values: what Buzz's canonical JSON and RFC 8785 agree on. */
const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    integer,
    anyString,
    fc.array(tie('json'), { maxLength: 5 }),
    fc.dictionary(key, tie('json'), { maxKeys: 6 }),
  ),
}));

describe('canonicalJson agrees with RFC 8785 (canonicalize) on integer-only JSON', () => {
  fcTest.prop([json], { numRuns })('any value', (value) => {
    expect(canonicalJson(value)).toBe(canonicalize(value));
  });

  fcTest.prop([fc.dictionary(key, integer, { minKeys: 2, maxKeys: 12 })], { numRuns })(
    'flat objects with colliding keys',
    (value) => {
      expect(canonicalJson(value)).toBe(canonicalize(value));
    },
  );

  fcTest.prop([json], { numRuns })('what JSON.parse reads back', (value) => {
    // Received envelopes are JSON.parse output: own "__proto__" keys, no -0.
    const parsed: unknown = JSON.parse(canonicalJson(value));
    expect(canonicalJson(parsed)).toBe(canonicalize(parsed));
    expect(canonicalJson(parsed)).toBe(canonicalJson(value));
  });
});

function codeAndPath(run: () => unknown): { code: string; path: string } {
  const { code, path } = thrownBuzzError(run);
  return { code, path };
}

describe('canonicalJson exact values', () => {
  test('sorts keys by UTF-16 code units, not code points', () => {
    // Code point order would put U+FFFF before U+1F600; UTF-16 puts the surrogate 0xD83D first.
    expect(canonicalJson({ '\uffff': 1, '😀': 2, '€': 3, b: 4, B: 5, '': 6 })).toBe(
      '{"":6,"B":5,"b":4,"€":3,"😀":2,"\uffff":1}',
    );
  });

  test('escapes exactly as JSON.stringify does', () => {
    expect(canonicalJson('q"b\\s/\u0000\u001f\n\t\u007f\u2028é😀\ud800')).toBe(
      '"q\\"b\\\\s/\\u0000\\u001f\\n\\t\u007f\u2028é😀\\ud800"',
    );
  });

  test('writes no whitespace and keeps array order', () => {
    expect(canonicalJson({ z: [3, 1, 2], a: { y: true, x: false }, m: null })).toBe(
      '{"a":{"x":false,"y":true},"m":null,"z":[3,1,2]}',
    );
  });

  test('prints -0 as 0 and the safe integer bounds exactly', () => {
    expect(canonicalJson([-0, 0, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])).toBe(
      '[0,0,9007199254740991,-9007199254740991]',
    );
  });

  test.each([
    { name: 'a fraction', value: { a: [0, 1.5] }, path: '/*/1' },
    { name: 'a fraction under contract keys', value: { events: [{ kind: 1.5 }] }, path: '/events/0/kind' },
    { name: 'NaN', value: [Number.NaN], path: '/0' },
    { name: 'Infinity', value: { x: Number.POSITIVE_INFINITY }, path: '/*' },
    { name: '2^53 (unsafe)', value: { n: 2 ** 53 }, path: '/*' },
    { name: '-(2^53) (unsafe)', value: -(2 ** 53), path: '' },
    { name: '1e21', value: [1e21], path: '/0' },
    { name: 'undefined in an object', value: { u: undefined }, path: '/*' },
    { name: 'a bigint', value: [1n], path: '/0' },
    { name: 'a function', value: { f: () => 1 }, path: '/*' },
    { name: 'a symbol', value: Symbol('s'), path: '' },
    { name: 'a received key (never echoed: written *)', value: { 'a/b~c': 0.5 }, path: '/*' },
    // Valid scalars, members and items written before the bad value leave no trace in its path.
    { name: 'a fraction after scalar members', value: { a: 1, b: 's', channel: { id: 0.5 } }, path: '/channel/id' },
    { name: 'a fraction after an array of scalars', value: { a: [1, 'x'], channel: { id: 0.5 } }, path: '/channel/id' },
    {
      name: 'a fraction after a nested object',
      value: { a: { b: 1 }, events: [1, { kind: 0.5 }] },
      path: '/events/1/kind',
    },
    { name: 'undefined after scalar items', value: { events: [1, 2, undefined] }, path: '/events/2' },
  ])('rejects $name with canonical_json at its path', ({ value, path }) => {
    expect(codeAndPath(() => canonicalJson(value))).toEqual({ code: 'canonical_json', path });
  });

  test('bounds nesting: maxDepth containers pass, one more is refused', () => {
    const nest = (depth: number): unknown => (depth === 0 ? 1 : [nest(depth - 1)]);
    expect(canonicalJson(nest(64))).toBe('['.repeat(64) + '1' + ']'.repeat(64));
    expect(codeAndPath(() => canonicalJson(nest(65)))).toEqual({ code: 'limit_exceeded', path: '/0'.repeat(64) });
    expect(canonicalJson({ a: [1] }, 2)).toBe('{"a":[1]}');
    expect(codeAndPath(() => canonicalJson({ a: [[1]] }, 2))).toEqual({ code: 'limit_exceeded', path: '/*/0' });
  });

  test('bounds the values visited: a graph sharing sub-objects costs maxNodes at most, not 2^depth', () => {
    // 2^40 visits if walked naively; refused after maxNodes visits instead.
    let shared: unknown = [1];
    for (let level = 0; level < 40; level++) shared = [shared, shared];
    expect(codeAndPath(() => canonicalJson(shared, 64, 10_000))).toEqual({ code: 'limit_exceeded', path: '' });
    expect(canonicalJson([[1], [1]], 64, 5)).toBe('[[1],[1]]');
    expect(codeAndPath(() => canonicalJson([[1], [1]], 64, 4)).code).toBe('limit_exceeded');
  });

  test('refuses a cycle instead of recursing forever', () => {
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(codeAndPath(() => canonicalJson(cycle)).code).toBe('limit_exceeded');
  });

  test('keeps an own "__proto__" key as data, sorted like any other key', () => {
    const parsed: unknown = JSON.parse('{"b":1,"__proto__":{"polluted":true},"a":2}');
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"polluted":true},"a":2,"b":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
