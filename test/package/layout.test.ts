/**
 * The layout of src/ (docs/architecture.md) as a checked fact: imports run one way, from the
 * package faces to the read pipeline, to the sources, to the shared kit and the vocabulary.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const src = new URL('../../src/', import.meta.url);
const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));

/** Each module of src/ with the modules of src/ it imports, as paths relative to src/. */
const graph = files.map((file) => {
  const text = readFileSync(new URL(file, src), 'utf8').replace(/\/\*\*[\s\S]*?\*\//g, '');
  const targets = [...text.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)].map((match) =>
    path.posix.join(path.posix.dirname(file), (match[1] ?? '').replace(/\.js$/, '.ts')),
  );
  return { file, targets };
});

const folderOf = (file: string): string => (file.includes('/') ? (file.split('/')[0] ?? '') : '.');
const SOURCES = ['envelope', 'draft', 'legacy'];

/** Imports from modules in `from` into modules in `into`, as `file -> target`. */
function imports(from: (folder: string) => boolean, into: (folder: string) => boolean): string[] {
  return graph.flatMap(({ file, targets }) =>
    from(folderOf(file))
      ? targets.filter((target) => into(folderOf(target))).map((target) => `${file} -> ${target}`)
      : [],
  );
}

describe('src/ layout', () => {
  test('the shared kit knows no source, no pipeline and no face', () => {
    expect(
      imports(
        (folder) => folder === 'shared',
        (folder) => folder !== 'shared' && folder !== '.',
      ),
    ).toEqual([]);
  });

  test('a source imports no other source and not the read pipeline', () => {
    for (const source of SOURCES) {
      const others = (folder: string): boolean => folder !== source && (SOURCES.includes(folder) || folder === 'read');
      expect(imports((folder) => folder === source, others)).toEqual([]);
    }
  });

  test('the vocabulary at the root imports only the shared kit and itself', () => {
    const vocabulary = ['context.ts', 'errors.ts', 'keys.ts', 'limits.ts', 'npub.ts'];
    const out = graph
      .filter(({ file }) => vocabulary.includes(file))
      .flatMap(({ file, targets }) =>
        targets
          .filter((target) => folderOf(target) !== 'shared' && !vocabulary.includes(target))
          .map((target) => `${file} -> ${target}`),
      );
    expect(out).toEqual([]);
  });

  test('the root holds only the package faces and the vocabulary', () => {
    expect(files.filter((file) => !file.includes('/')).sort()).toEqual([
      'context.ts',
      'errors.ts',
      'host.ts',
      'index.ts',
      'keys.ts',
      'limits.ts',
      'npub.ts',
      'redis.ts',
      'testing.ts',
    ]);
  });
});
