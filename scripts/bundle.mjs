#!/usr/bin/env node
// The second half of `npm run build`: tsc has written dist/ (declarations and one .js per
// source file); this replaces the .js files with one bundle per entry point (the package's
// `exports` and `bin`) plus shared chunks, so `import 'buzz-meta'` loads a few files instead of
// about fifty: module loading, not our code, was most of the cold import (docs/performance.md).
// Dependencies stay external (one copy of zod, nostr-tools and @noble for the whole app), and
// the .d.ts files tsc wrote are kept as they are.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

const targets = [
  ...Object.values(pkg.exports).map((entry) => (typeof entry === 'string' ? entry : entry.default)),
  ...Object.values(pkg.bin),
].filter((file) => file.startsWith('./dist/') || file.startsWith('dist/'));
const entryPoints = targets.map((file) => path.join(dist, path.relative('dist', path.normalize(file))));

// Bundle from tsc's output, then drop every .js that is not an entry point or a chunk.
const result = await build({
  entryPoints,
  outdir: dist,
  outbase: dist,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // Chunks sit two levels deep like dist/cli/bin.js, but code that resolves files relative to
  // import.meta.url (the CLI's package.json and examples/) lives only in the bin entry.
  chunkNames: 'chunks/[name]-[hash]',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  write: true,
});

const keep = new Set(Object.keys(result.metafile.outputs).map((file) => path.resolve(root, file)));
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (file.endsWith('.js') && !keep.has(file)) rmSync(file);
  }
};
walk(dist);
