/**
 * docs/recipes.md shows code that runs: every ```ts block is a part of a file in examples/ (with
 * the package's import names), verbatim, and those files are type-checked and run by their tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');

/** Every example file as a user would write it: the package's names in the imports. */
const examples = readdirSync(new URL('examples/', root))
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({
    name,
    text: read(`examples/${name}`)
      .replaceAll("from '../src/index.js'", "from 'buzz-meta'")
      .replaceAll("from '../src/acp/index.js'", "from 'buzz-meta/acp'")
      .replaceAll("from '../src/host.js'", "from 'buzz-meta/host'"),
  }));

const blocks = read('docs/recipes.md')
  .split('```ts\n')
  .slice(1)
  .map((rest) => rest.slice(0, rest.indexOf('```')));

test('docs/recipes.md has code, and every ```ts block is part of an example file', () => {
  expect(blocks.length).toBeGreaterThan(0);
  const homeless = blocks.filter((block) => !examples.some((example) => example.text.includes(block)));
  expect(homeless).toEqual([]);
});
