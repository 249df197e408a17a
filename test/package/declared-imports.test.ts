/**
 * Every package the code imports is declared in package.json, so nothing resolves only because
 * another package happens to depend on it. The library's own modules import only dependencies and
 * peers (what an install has); the command's argument parser is bundled into it at build time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

interface Manifest {
  readonly name: string;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  readonly peerDependencies: Readonly<Record<string, string>>;
}
const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as Manifest;

/** Bare specifiers in a source text: `from 'x'`, `import('x')`, `import 'x'`. */
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'([@a-z][\w@./-]*)'/gm;
/** The library also loads packages on first use through `createRequire` (src/shared/deferred.ts). */
const DEFERRED_LOAD = /\bload\(\s*'([@a-z][\w@./-]*)'/g;

/** The package a bare specifier names (`@scope/name` or `name`), or undefined for `node:` built-ins. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Packages imported by the code files under `folder`, by file (relative to the repository). */
function importsUnder(folder: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const files = readdirSync(new URL(folder, root), { recursive: true, encoding: 'utf8' });
  for (const file of files.filter((name) => /\.(?:ts|mts|mjs|js)$/.test(name))) {
    const text = readFileSync(new URL(`${folder}/${file}`, root), 'utf8');
    // TSDoc examples show how a user imports the package; they are not imports of this code.
    const code = text.replace(/\/\*\*[\s\S]*?\*\//g, '');
    const matches = [...code.matchAll(SPECIFIER), ...(folder === 'src' ? code.matchAll(DEFERRED_LOAD) : [])];
    const names = new Set(matches.flatMap((match) => packageOf(match[1] ?? '') ?? []));
    if (names.size > 0) out.set(`${folder}/${file}`, names);
  }
  return out;
}

const installed = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
const declared = new Set([...installed, ...Object.keys(manifest.devDependencies), manifest.name]);

describe('declared imports', () => {
  test.each(['src', 'test', 'bench', 'scripts', 'examples'])('every package %s/ imports is declared', (folder) => {
    const undeclared = [...importsUnder(folder)].flatMap(([file, names]) =>
      [...names].filter((name) => !declared.has(name)).map((name) => `${file}: ${name}`),
    );
    expect(undeclared).toEqual([]);
  });

  test('the library imports only dependencies and peers; the command bundles commander', () => {
    const library = [...importsUnder('src')].flatMap(([file, names]) =>
      [...names].filter((name) => !installed.has(name)).map((name) => `${file}: ${name}`),
    );
    expect(library).toEqual(['src/cli/main.ts: commander']);
    expect(manifest.devDependencies.commander).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
