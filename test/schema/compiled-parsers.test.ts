/**
 * The reader parses with `z.compile`d schemas (`draftParser`, `envelopeParser`); on valid and
 * mutated inputs they must answer exactly as the plain zod schemas of record do: same success,
 * same output (values and key order at every level), same issues (codes, paths, messages).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type * as z from 'zod';
import { draftParser, draftSchema } from '../../src/draft/schema.js';
import { envelopeParser, envelopeSchema } from '../../src/envelope/schema.js';
import { DEFAULT_LIMITS, type BuzzLimits } from '../../src/limits.js';
import { VALID_DRAFTS, PR4751_DRAFTS, PR7063_DRAFTS } from '../draft/cases.js';
import { jobEnvelope, jsonCopy, sampleEnvelope } from '../envelope/sample.js';
import { numRuns } from '../support/fuzz.js';

type Json = unknown;
type Edit = { kind: 'set'; value: Json } | { kind: 'delete' } | { kind: 'proto' } | { kind: 'grow'; times: number };

/** Every path (as key lists) of containers and leaves in a JSON value. */
function paths(value: Json, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((item, i) => paths(item, [...prefix, i], out));
  else if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) paths((value as Record<string, Json>)[key], [...prefix, key], out);
  }
  return out;
}

/** `root` with `edit` applied at `path`, on a copy (own `__proto__` keys stay data, as in a received request). */
function applyEdit(root: Json, path: readonly (string | number)[], edit: Edit): Json {
  if (path.length === 0) return edit.kind === 'set' ? edit.value : root;
  const out = jsonCopy(root);
  let parent = out as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path.at(-1) ?? '';
  const target = parent[last];
  if (edit.kind === 'set') parent[last] = edit.value;
  else if (edit.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else Reflect.deleteProperty(parent, last);
  } else if (edit.kind === 'proto') {
    if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
      Object.defineProperty(target, '__proto__', {
        value: { polluted: 1 },
        enumerable: true,
        configurable: true,
        writable: true,
      });
    }
  } else if (Array.isArray(target) && target.length > 0) {
    for (let i = 0; i < edit.times; i++) target.push(jsonCopy(target[i % target.length]));
  }
  return out;
}

const hexChar = fc.constantFrom(...'0123456789abcdefABCDEFg-'.split(''));
const leaf = fc.oneof(
  fc.constantFrom<Json>(
    null,
    true,
    false,
    0,
    -0,
    1,
    -1,
    1.5,
    2 ** 53,
    2 ** 53 - 1,
    65_535,
    65_536,
    Number.NaN,
    Infinity,
    '',
    'dm',
    'channel',
    'stream',
    'member',
    'owner',
    'request',
    'bip340-sha256',
  ),
  fc.string({ maxLength: 80 }),
  fc.array(hexChar, { minLength: 60, maxLength: 130 }).map((chars) => chars.join('')),
  fc.integer(),
  fc.double(),
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ unit: 'binary', maxLength: 600 }),
);
const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 6, arbitrary: leaf.map((value) => ({ kind: 'set' as const, value })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'delete' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'proto' as const }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 120 }).map((times) => ({ kind: 'grow' as const, times })) },
);

/** Same value, same own-key order at every level. */
function sameShape(a: unknown, b: unknown): boolean {
  if (!isDeepStrictEqual(a, b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.every((item, i) => sameShape(item, b[i]));
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = Object.keys(a);
    return (
      isDeepStrictEqual(keys, Object.keys(b)) &&
      keys.every((key) => sameShape((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
    );
  }
  return true;
}

/** True when both schemas give the same answer for `input`. */
function agree(plain: z.ZodType, compiled: z.ZodType, input: Json): boolean {
  const p = plain.safeParse(input);
  const c = compiled.safeParse(input);
  if (p.success !== c.success) return false;
  return p.success ? sameShape(p.data, c.data) : isDeepStrictEqual(p.error.issues, c.error?.issues);
}

/** The property: every seed with up to three random edits gets the same answer from both schemas. */
function sameAnswers(plain: z.ZodType, compiled: z.ZodType, seeds: readonly Json[]): void {
  fc.assert(
    fc.property(fc.constantFrom(...seeds), fc.array(fc.tuple(fc.nat(), edit), { maxLength: 3 }), (seed, edits) => {
      let input = jsonCopy(seed);
      for (const [at, change] of edits) {
        const all = paths(input);
        input = applyEdit(input, all[at % all.length] ?? [], change);
      }
      expect(agree(plain, compiled, input)).toBe(true);
    }),
    { numRuns },
  );
}

const isCompiled = (schema: z.ZodType): boolean =>
  'validator' in (schema as unknown as { _zod: { bag: object } })._zod.bag;

const small: BuzzLimits = Object.freeze({
  ...DEFAULT_LIMITS,
  maxEvents: 3,
  maxTags: 4,
  maxTagValues: 3,
  maxTagValueLength: 70,
  maxContentLength: 120,
  maxMembers: 2,
});
const limitSets = [
  ['default limits', DEFAULT_LIMITS],
  ['small limits', small],
] as const;

const drafts: Json[] = [...VALID_DRAFTS, ...PR4751_DRAFTS, ...PR7063_DRAFTS].map((draft) => draft.buzz);
const envelopes: Json[] = [sampleEnvelope(), jobEnvelope()];

describe('compiled parsers answer as the schemas of record', () => {
  test.each(limitSets)('draft (%s)', (_, limits) => {
    expect(draftParser(limits)).not.toBe(draftSchema(limits));
    expect(isCompiled(draftParser(limits))).toBe(true);
    sameAnswers(draftSchema(limits), draftParser(limits), drafts);
  });

  test.each(limitSets)('envelope (%s)', (_, limits) => {
    expect(isCompiled(envelopeParser(limits))).toBe(true);
    sameAnswers(envelopeSchema(limits), envelopeParser(limits), envelopes);
  });

  test('the check notices a real difference: a plain schema against a parser of other limits', () => {
    expect(() => {
      sameAnswers(draftSchema(DEFAULT_LIMITS), draftParser(small), drafts);
    }).toThrow();
  });
});
