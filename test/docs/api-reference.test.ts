/**
 * The API reference (`npm run docs`, typedoc.json) renders every user guide as a document page,
 * not as a raw `.md` file: its `projectDocuments` are exactly the guides the package ships
 * (package.json `files`: every docs/*.md but the developer docs it excludes).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const root = new URL('../../', import.meta.url);
const json = (path: string): unknown => JSON.parse(readFileSync(new URL(path, root), 'utf8'));

test('typedoc.json lists every shipped guide as a project document', () => {
  const { files } = json('package.json') as { files: string[] };
  const excluded = new Set(files.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1)));
  const guides = readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
    .filter((path) => !excluded.has(path));
  const { projectDocuments } = json('typedoc.json') as { projectDocuments: string[] };
  expect([...projectDocuments].sort()).toEqual(guides.sort());
});
