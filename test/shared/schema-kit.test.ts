/**
 * The pieces of src/shared/schema-kit.ts that a read reaches only in one way, tested directly: the schema
 * cache per set of limits (at most 16 sets, the last one remembered by identity), when a schema is
 * compiled for reading and when the plain one is kept, symbol path segments, and the bounds of the
 * unknown-key report.
 */
import * as z from 'zod';
import { describe, expect, test } from 'vitest';
import { resolveLimits } from '../../src/limits.js';
import { limitedSchemas, parseWith, reportUnknownKeys } from '../../src/shared/schema-kit.js';

/** A cache over a build function that counts its calls. */
function counted() {
  let builds = 0;
  const schemas = limitedSchemas(() => {
    builds++;
    return z.string();
  });
  return { schemas, builds: () => builds };
}

describe('limitedSchemas', () => {
  test('builds once per distinct set of limits, equal or not identical', () => {
    const { schemas, builds } = counted();
    const a = schemas.schema(resolveLimits({ maxEvents: 3 }));
    expect(schemas.schema(resolveLimits({ maxEvents: 3 }))).toBe(a);
    expect(schemas.schema(resolveLimits({ maxEvents: 4 }))).not.toBe(a);
    expect(builds()).toBe(2);
  });

  test('keeps 16 sets of limits; a 17th is built on every call', () => {
    const { schemas, builds } = counted();
    const sets = Array.from({ length: 17 }, (_, k) => resolveLimits({ maxEvents: k + 1 }));
    const first = sets.map((limits) => schemas.schema(limits));
    expect(builds()).toBe(17);
    expect(sets.slice(0, 16).map((limits) => schemas.schema(limits))).toEqual(first.slice(0, 16));
    expect(sets.slice(0, 16).every((limits, k) => schemas.schema(limits) === first[k])).toBe(true);
    expect(builds()).toBe(17);
    const seventeenth = sets[16] ?? resolveLimits(undefined);
    expect(schemas.schema(seventeenth)).not.toBe(first[16]);
    expect(builds()).toBe(18);
  });

  test('parser: the same compiled schema for the same limits, also past the 16 kept sets', () => {
    const { schemas, builds } = counted();
    const sets = Array.from({ length: 17 }, (_, k) => resolveLimits({ maxEvents: k + 1 }));
    for (const limits of sets) schemas.schema(limits);
    const seventeenth = sets[16] ?? resolveLimits(undefined);
    const parser = schemas.parser(seventeenth);
    // The last limits object is remembered by identity: no build, the very same parser.
    expect(schemas.parser(seventeenth)).toBe(parser);
    expect(builds()).toBe(18);
    const kept = sets[0] ?? resolveLimits(undefined);
    expect(schemas.parser(kept)).toBe(schemas.parser(resolveLimits({ maxEvents: 1 })));
    expect(schemas.parser(kept)).not.toBe(schemas.schema(kept));
  });
});

describe('the parser for reading', () => {
  test('is compiled where zod can, and the plain schema under jitless', () => {
    const schemas = limitedSchemas(() => z.object({ a: z.string() }));
    const limits = resolveLimits({ maxEvents: 2 });
    const compiled = schemas.parser(limits);
    expect(compiled).not.toBe(schemas.schema(limits));
    expect(compiled.parse({ a: 'x' })).toEqual({ a: 'x' });
    const before = z.config().jitless;
    z.config({ jitless: true });
    try {
      const other = resolveLimits({ maxEvents: 3 });
      expect(schemas.parser(other)).toBe(schemas.schema(other));
    } finally {
      z.config({ jitless: before });
    }
  });

  test('is the plain schema when zod declines to compile it', () => {
    const refusing = new Proxy(z.string(), {
      get() {
        throw new Error('not compilable');
      },
    });
    const schemas = limitedSchemas(() => refusing);
    expect(schemas.parser(resolveLimits({ maxEvents: 2 }))).toBe(refusing);
  });
});

describe('parseWith', () => {
  test('a symbol path segment is written as ?', () => {
    const schema = z.string().refine(() => false, { error: 'no', path: [Symbol('hidden')] });
    const result = parseWith(schema, 'x', 'invalid_draft');
    expect(result.ok ? undefined : [result.error.code, result.error.path]).toEqual(['invalid_draft', '/_meta/buzz/?']);
  });
});

describe('reportUnknownKeys', () => {
  const known = new Set(['id']);
  const keys = (n: number): Record<string, number> =>
    Object.fromEntries(Array.from({ length: n }, (_, k) => [`k${String(k)}`, k]));

  test('reports nothing for values that are not plain objects', () => {
    for (const value of [null, undefined, 'text', 3, [1, 2]]) {
      const out: string[] = [];
      reportUnknownKeys(value, known, ['events', 0], out);
      expect(out).toEqual([]);
    }
  });

  test('names exactly 8 unknown keys, with no count line', () => {
    const out: string[] = [];
    reportUnknownKeys({ id: 1, ...keys(8) }, known, ['events', 0], out);
    expect(out).toHaveLength(8);
    expect(out[7]).toBe('unknown key /events/0/k7 ignored');
  });

  test('counts the rest past 8, under / at the root', () => {
    const out: string[] = [];
    reportUnknownKeys(keys(11), known, [], out);
    expect(out.slice(7)).toEqual(['unknown key /k7 ignored', '3 more unknown keys under / ignored']);
  });
});
