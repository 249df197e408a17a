/**
 * Runs every committed vector in test/vectors/*.json through the public API and checks its
 * expectation, and proves the committed files are exactly what scripts/gen-vectors.ts produces.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import {
  BuzzMetaError,
  canonicalJson,
  readBuzzContext,
  type ReadBuzzOptions,
  verifyBuzzEnvelope,
} from '../../src/index.js';
import { buildVectorFiles, vectorText } from '../../scripts/gen-vectors.js';

// canonicalize is CommonJS whose typings claim an ES default export; require() gives the function itself.
const canonicalize = createRequire(import.meta.url)('canonicalize') as (value: unknown) => string;

interface ReadVector {
  name: string;
  params: { _meta?: { buzz?: unknown } };
  options: ReadBuzzOptions;
  expect: { ok: true; context: unknown } | { ok: false; code: string; path: string };
  verifyFailures?: string[];
}

interface CanonicalVector {
  name: string;
  json: string;
  canonical?: string;
  error?: string;
}

const VECTOR_DIR = new URL('../vectors/', import.meta.url);
const load = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(name, VECTOR_DIR), 'utf8')) as Record<string, unknown>;

function check(vector: ReadVector): void {
  const read = readBuzzContext(vector.params, vector.options);
  if (vector.expect.ok) {
    expect(read).toEqual({ ok: true, context: vector.expect.context });
  } else {
    expect(read.ok ? 'ok' : [read.error.code, read.error.path]).toEqual([vector.expect.code, vector.expect.path]);
  }
  if (vector.verifyFailures !== undefined) {
    const agentPubkey = vector.options.agentPubkey;
    if (agentPubkey === undefined) throw new Error(`${vector.name}: verifyFailures needs an agentPubkey`);
    const limits = vector.options.limits;
    const verification = verifyBuzzEnvelope(vector.params._meta?.buzz, {
      agentPubkey,
      ...(limits === undefined ? {} : { limits }),
    });
    expect(verification.failures.map((failure) => failure.code)).toEqual(vector.verifyFailures);
  }
}

describe.each(['envelope-valid.json', 'envelope-mutations.json', 'envelope-invalid.json'])('%s', (file) => {
  const cases = load(file).cases as ReadVector[];
  test.each(cases.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    check(vector);
  });
});

describe.each(['draft.json', 'draft-pr4751.json', 'draft-pr7063.json'])('%s', (file) => {
  const vectors = load(file);
  test.each(
    [...(vectors.valid as ReadVector[]), ...(vectors.invalid as ReadVector[])].map((v) => [v.name, v] as const),
  )('%s', (_name, vector) => {
    check(vector);
  });
});

describe('canonical-json.json', () => {
  const cases = load('canonical-json.json').cases as CanonicalVector[];
  test.each(cases.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    const value: unknown = JSON.parse(vector.json);
    if (vector.canonical !== undefined) {
      expect(canonicalJson(value)).toBe(vector.canonical);
      expect(canonicalize(value)).toBe(vector.canonical);
    } else {
      expect(() => canonicalJson(value)).toThrow(BuzzMetaError);
      expect(() => canonicalJson(value)).toThrow(expect.objectContaining({ code: vector.error }));
    }
  });
});

describe('provenance', () => {
  // Builds and signs every vector (101-event and 1000-event cases among them): seconds on a loaded
  // machine.
  test(
    'the committed files are exactly what scripts/gen-vectors.ts generates (deterministic signatures)',
    { timeout: 60_000 },
    () => {
      const files = buildVectorFiles();
      for (const [name, content] of Object.entries(files)) {
        expect(readFileSync(new URL(name, VECTOR_DIR), 'utf8'), name).toBe(vectorText(content));
      }
    },
  );

  test('the README describes every vector file', () => {
    const readme = readFileSync(new URL('README.md', VECTOR_DIR), 'utf8');
    for (const name of Object.keys(buildVectorFiles())) expect(readme).toContain(name);
  });
});
