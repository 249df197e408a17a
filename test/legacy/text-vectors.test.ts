/**
 * test/vectors/text/: literal prompt texts of every legacy era, each read through
 * readBuzzContext and compared with its expected context (or error code and path).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { readBuzzContext } from '../../src/index.js';
import { buildTextVectorFiles } from '../../scripts/gen-text-vectors.js';

const DIR = new URL('../vectors/text/', import.meta.url);

interface TextCase {
  readonly name: string;
  readonly params: unknown;
  readonly expect: { ok: true; context: unknown } | { ok: false; code: string; path: string };
}

const files = readdirSync(DIR).filter((name) => name.endsWith('.json'));

describe.each(files)('%s', (file) => {
  const { cases } = JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as { cases: TextCase[] };
  test.each(cases.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const read = readBuzzContext(c.params);
    if (c.expect.ok) {
      expect(read.ok ? read.context : read.error.message).toEqual(c.expect.context);
    } else {
      expect(read.ok ? 'ok' : [read.error.code, read.error.path]).toEqual([c.expect.code, c.expect.path]);
    }
  });
});

test('the committed files are what scripts/gen-text-vectors.ts generates, and the README names each', () => {
  const built = buildTextVectorFiles();
  expect(files.sort()).toEqual(Object.keys(built).sort());
  const readme = readFileSync(new URL('README.md', DIR), 'utf8');
  for (const [name, text] of Object.entries(built)) {
    expect(readFileSync(new URL(name, DIR), 'utf8')).toBe(text);
    expect(readme).toContain(name);
  }
});
