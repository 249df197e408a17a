#!/usr/bin/env node
// The second half of `npm run build`: tsc has written dist/ (declarations and one .js per
// source file); this replaces the .js files with one bundle per entry point (the package's
// `exports` and `bin`) plus shared chunks, so `import 'buzz-meta'` loads a few files instead of
// about fifty: module loading, not our code, was most of the cold import (docs/performance.md).
// The library's dependencies stay external (one copy of zod, nostr-tools and @noble for the whole
// app); the command, an application of its own, bundles commander and zod (see below). The .d.ts
// files tsc wrote are kept as they are.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

const inDist = (file) => path.join(dist, path.relative('dist', path.normalize(file)));
const libraryEntries = Object.values(pkg.exports)
  .map((entry) => (typeof entry === 'string' ? entry : entry.default))
  .filter((file) => file.startsWith('./dist/'))
  .map(inDist);
const commandEntries = Object.values(pkg.bin).map(inDist);

const shared = {
  outdir: dist,
  outbase: dist,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Chunks sit two levels deep like dist/cli/bin.js, but code that resolves files relative to
  // import.meta.url (the CLI's package.json and examples/) lives only in the bin entry.
  chunkNames: 'chunks/[name]-[hash]',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  write: true,
};

// Bundle from tsc's output, then drop every .js that is not an entry point or a chunk.
const library = await build({ ...shared, entryPoints: libraryEntries, packages: 'external' });

// The command is an application of its own: its argument parser (commander, which the package does
// not depend on at run time) and zod are bundled into it, so `buzz-meta` runs from an install that
// has only the peer dependencies, and its start-up loads a few files instead of zod's ~90
// (docs/performance.md, inspect). Their licences go next to it. The other dependencies stay external.
const bundledIntoCommand = ['commander', 'zod'];
const external = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies })
  .filter((name) => !bundledIntoCommand.includes(name))
  .flatMap((name) => [name, `${name}/*`]);
const command = await build({
  ...shared,
  entryPoints: commandEntries,
  external,
  // commander is CommonJS: its `require('node:events')` and the like need a `require` in an ES module.
  banner: {
    js: "import { createRequire as __cliRequire } from 'node:module';\nconst require = __cliRequire(import.meta.url);",
  },
});
writeFileSync(
  path.join(dist, 'cli', 'THIRD-PARTY-LICENSES.txt'),
  bundledIntoCommand
    .map(
      (name) =>
        `${name} (bundled into dist/cli/)\n\n${readFileSync(path.join(root, 'node_modules', name, 'LICENSE'), 'utf8')}`,
    )
    .join('\n\n'),
);
const result = { metafile: { outputs: { ...library.metafile.outputs, ...command.metafile.outputs } } };

const keep = new Set(Object.keys(result.metafile.outputs).map((file) => path.resolve(root, file)));
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (file.endsWith('.js') && !keep.has(file)) rmSync(file);
  }
};
walk(dist);
