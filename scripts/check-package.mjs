#!/usr/bin/env node
// Package hygiene gate (`npm run check:package`; run `npm run build` first).
//
// 1. Packs the package once (`npm pack --json`, the same file list `npm pack --dry-run` prints)
//    and checks that it ships only dist/, README.md, LICENSE, CHANGELOG.md, package.json,
//    docs/schema/*.json and the user guides in docs/ (not the developer docs), with nothing test-like inside dist/ (tests, fixtures, vectors, examples, benches, or their
//    source maps), and that every file `exports` points at is in the tarball. No source maps
//    at all: src/ is not shipped, so a map would point at files that are not there, and dist/
//    is tsc's readable, comment-keeping output (a stack trace is legible without one). Neither
//    a .map file nor a sourceMappingURL comment may be in the tarball.
// 2. Runs publint (strict: warnings count as errors; suggestions are printed and fail too) on
//    that tarball.
// 3. Runs @arethetypeswrong/cli with the esm-only profile on that tarball.
// Exits 1 when any check fails, after running all of them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const failures = [];
const fail = (message) => {
  failures.push(message);
  console.error(`  ✗ ${message}`);
};

/** Paths the tarball may contain (npm adds package.json, README.md and LICENSE by itself). */
const allowed = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^CHANGELOG\.md$/,
  /^dist\/.+$/,
  /^docs\/schema\/[^/]+\.json$/,
  // The user guides the README links to, so no relative link in the packed README is dead.
  /^docs\/[^/]+\.md$/,
];
/**
 * Developer docs: how this repository is tested, measured and laid out. They stay out of the
 * tarball (package.json `files` excludes them); every other docs/*.md is a user guide and ships.
 */
const developerDocs = ['docs/testing.md', 'docs/performance.md', 'docs/architecture.md'];
/** Never in the tarball, even under dist/: tests, type tests, fixtures and their maps. */
const forbidden = [
  /(?:^|\/)(?:test|tests|__tests__|fixtures?|vectors|examples|bench|coverage)\//,
  /\.(?:test|spec)(?:-d)?\.(?:d\.)?[cm]?[jt]sx?(?:\.map)?$/,
  /(?:^|\/)tsconfig[^/]*\.json$/,
  /\.tsbuildinfo$/,
];
/** Must be in the tarball. */
const required = ['package.json', 'README.md', 'LICENSE'];

/** Every file path named by `exports` (conditions flattened; no globs in this package). */
function exportTargets(exportsField) {
  if (typeof exportsField === 'string') return [exportsField];
  if (exportsField === null || typeof exportsField !== 'object') {
    return [];
  }
  return Object.values(exportsField).flatMap(exportTargets);
}

if (!existsSync(path.join(root, 'dist'))) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(1);
}

const workDir = mkdtempSync(path.join(tmpdir(), 'buzz-meta-pack-'));
try {
  // --- 1. what ships -------------------------------------------------------------------------
  console.log('npm pack: checking the file list');
  const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', workDir], {
    cwd: root,
    encoding: 'utf8',
  });
  if (packed.status !== 0) {
    console.error(packed.stdout, packed.stderr);
    throw new Error(`npm pack failed (exit ${String(packed.status)})`);
  }
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[')));
  const files = info.files.map((file) => file.path).sort();
  const tarball = path.join(workDir, info.filename);
  for (const file of files) {
    if (!allowed.some((re) => re.test(file))) fail(`not allowed in the package: ${file}`);
    if (forbidden.some((re) => re.test(file))) {
      fail(`test/fixture material in the package: ${file}`);
    }
  }
  for (const file of files) {
    if (file.endsWith('.map')) fail(`source map in the package (its sources are not shipped): ${file}`);
    else if (/\.[cm]?[jt]s$/.test(file) && readFileSync(path.join(root, file), 'utf8').includes('sourceMappingURL')) {
      fail(`sourceMappingURL comment in the package (no maps ship): ${file}`);
    }
  }
  for (const file of required) {
    if (!files.includes(file)) fail(`missing from the package: ${file}`);
  }
  for (const file of developerDocs) {
    if (files.includes(file)) fail(`developer doc in the package (only user guides ship): ${file}`);
  }
  for (const name of readdirSync(path.join(root, 'docs'))) {
    const file = `docs/${name}`;
    if (name.endsWith('.md') && !developerDocs.includes(file) && !files.includes(file)) {
      fail(`user guide missing from the package: ${file}`);
    }
  }
  for (const target of exportTargets(pkg.exports)) {
    const file = path.posix.normalize(target);
    if (!files.includes(file)) fail(`exports target not in the package: ${target}`);
  }
  // README.md is the package page: each relative link must name a file that ships (an absolute
  // URL is left alone). Anchors are not checked, only the file.
  for (const [, target] of readFileSync(path.join(root, 'README.md'), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][\w+.-]*:/i.test(target) || target.startsWith('#')) continue;
    const file = path.posix.normalize(decodeURI(target.split('#')[0]));
    if (!files.includes(file)) fail(`README link to a file the package does not ship: ${target}`);
  }
  const distFiles = files.filter((f) => f.startsWith('dist/')).length;
  const schemaFiles = files.filter((f) => f.startsWith('docs/schema/')).length;
  console.log(
    `  ${files.length} files, ${info.size} bytes packed / ${info.unpackedSize} unpacked ` +
      `(${distFiles} in dist/, ${schemaFiles} schema files)`,
  );

  // --- 2. publint ----------------------------------------------------------------------------
  console.log('publint (strict) on the tarball');
  const bytes = readFileSync(tarball);
  const { messages, pkg: packedPkg } = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
    level: 'suggestion',
    strict: true,
  });
  for (const message of messages) {
    fail(`publint ${message.type}: ${formatMessage(message, packedPkg, { color: false }) ?? message.code}`);
  }
  if (messages.length === 0) console.log('  All good.');

  // --- 3. are the types wrong ----------------------------------------------------------------
  console.log('attw --profile esm-only on the tarball');
  const attw = spawnSync(
    path.join(root, 'node_modules', '.bin', 'attw'),
    [tarball, '--profile', 'esm-only', '--format', 'table', '--no-color', '--no-emoji'],
    { cwd: root, encoding: 'utf8' },
  );
  process.stdout.write(`${attw.stdout.trimEnd().replace(/^/gm, '  ')}\n`);
  process.stderr.write(attw.stderr);
  if (attw.status !== 0) fail(`attw reported problems (exit ${String(attw.status)})`);
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`check:package FAILED (${failures.length} problem(s))`);
  process.exit(1);
}
console.log('check:package OK');
