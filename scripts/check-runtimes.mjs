#!/usr/bin/env node
// The runtime matrix (`npm run check:runtimes`; needs the npm registry, so CI runs it): the
// smoke suite (scripts/runtime-smoke/) on every runtime scripts/runtimes.json pins, against the
// packed tarball installed in a scratch project, as users get it.
//
// 1. Installs each pinned runtime from the npm registry (`npm pack <package>@<version>`, then the
//    one binary out of the tarball) into a cache folder outside the repository:
//    $BUZZ_RUNTIMES_CACHE, else $XDG_CACHE_HOME/buzz-meta/runtimes, else ~/.cache/buzz-meta/runtimes.
//    A runtime already there is not downloaded again; each must report its pinned version.
// 2. Packs this package, installs the tarball with zod and the ACP SDK (npm, no lockfile of ours)
//    and copies the smoke suite and test/vectors next to them; Deno gets copies whose package
//    imports are `npm:` specifiers (Deno resolves them from that node_modules).
// 3. Runs the smoke suite on each runtime, one after the other: the host and the agent it spawns
//    both run on the runtime under test. Prints each step, then the matrix with each time.
// 4. Fails unless every runtime passed and README.md's support matrix (between the
//    `<!-- runtimes:start -->` and `<!-- runtimes:end -->` markers) names every pinned version.
// `--only LABEL,...` runs some runtimes (by label, e.g. `--only 'Deno 2'`); `--keep` keeps the
// scratch project.
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { packIntoProject, run } from './scratch.mjs';

const started = Date.now();
const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const pinned = JSON.parse(readFileSync(path.join(import.meta.dirname, 'runtimes.json'), 'utf8')).runtimes;
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? undefined : (process.argv[onlyAt + 1] ?? '').split(',');
const runtimes = only === undefined ? pinned : pinned.filter((runtime) => only.includes(runtime.label));
const keep = process.argv.includes('--keep');
const cache =
  process.env.BUZZ_RUNTIMES_CACHE ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'buzz-meta', 'runtimes');
const SMOKE_TIMEOUT_MS = 180_000;
const failures = [];
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** A runtime's folder in the cache, and its binary there. */
const folderOf = (runtime) => path.join(cache, `${runtime.package.replace('/', '+')}@${runtime.version}`);
const binaryOf = (runtime) => path.join(folderOf(runtime), runtime.binary);

/** Downloads the runtimes not in the cache yet, all in one `npm pack`, and extracts each binary. */
function installRuntimes() {
  const missing = runtimes.filter((runtime) => !existsSync(binaryOf(runtime)));
  if (missing.length === 0) {
    console.log(`runtimes: all ${String(runtimes.length)} in ${cache}`);
    return;
  }
  mkdirSync(cache, { recursive: true });
  const downloads = mkdtempSync(path.join(cache, 'download-'));
  try {
    const specs = missing.map((runtime) => `${runtime.package}@${runtime.version}`);
    console.log(`runtimes: downloading ${specs.join(' ')}`);
    const packed = JSON.parse(
      run('npm', ['pack', '--json', '--loglevel=error', '--pack-destination', downloads, ...specs], {
        cwd: downloads,
      }).replace(/^[^[]*/, ''),
    );
    for (const runtime of missing) {
      const entry = packed.find((item) => item.name === runtime.package && item.version === runtime.version);
      if (entry === undefined) throw new Error(`npm pack did not fetch ${runtime.package}@${runtime.version}`);
      const unpacked = mkdtempSync(path.join(downloads, 'unpacked-'));
      run('tar', ['-xzf', path.join(downloads, entry.filename), '-C', unpacked, runtime.binary]);
      // Another run may have installed it meanwhile: then keep theirs.
      if (!existsSync(folderOf(runtime))) renameSync(unpacked, folderOf(runtime));
      if (!existsSync(binaryOf(runtime))) throw new Error(`no ${runtime.binary} in ${entry.filename}`);
    }
  } finally {
    rmSync(downloads, { recursive: true, force: true });
  }
}

/** The scratch project: the packed tarball, zod and the ACP SDK, the smoke suite and the vectors. */
function makeProject(work) {
  const { tarball, project } = packIntoProject(root, work, 'runtime-smoke');
  const dev = pkg.devDependencies;
  const deps = [tarball, `zod@${dev.zod}`, `@agentclientprotocol/sdk@${dev['@agentclientprotocol/sdk']}`];
  console.log(`npm install (scratch project): ${deps.map((dep) => path.basename(dep)).join(' ')}`);
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...deps], { cwd: project });
  cpSync(path.join(root, 'test', 'vectors'), path.join(project, 'vectors'), {
    recursive: true,
    filter: (source) => !source.endsWith('.md'),
  });
  const deno = path.join(project, 'deno');
  mkdirSync(deno);
  symlinkSync('../vectors', path.join(deno, 'vectors'));
  for (const file of ['smoke.mjs', 'agent.mjs']) {
    const source = readFileSync(path.join(import.meta.dirname, 'runtime-smoke', file), 'utf8');
    writeFileSync(path.join(project, file), source);
    writeFileSync(
      path.join(deno, file),
      source.replace(/from '((?:buzz-meta|@agentclientprotocol\/sdk)(?:\/[\w./-]+)?)'/g, "from 'npm:$1'"),
    );
  }
  return project;
}

/** Runs `command` to the end (or the timeout); resolves with its exit code and both streams. */
function runAsync(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text) => (output += text));
    child.stderr.setEncoding('utf8').on('data', (text) => (output += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), SMOKE_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, output: `${output}${error.message}\n` });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, output });
    });
  });
}

/** The smoke suite on one runtime: its version checked first, then smoke.mjs (which starts agent.mjs). */
async function smoke(runtime, project) {
  const binary = binaryOf(runtime);
  const reported = run(binary, ['--version']).trim();
  if (!reported.includes(runtime.version)) {
    return { ok: false, output: `${binary} --version says ${reported}, not ${runtime.version}\n` };
  }
  const dir = runtime.npmSpecifiers === true ? 'deno' : '.';
  const command = (file) => [binary, ...runtime.run, path.join(dir, file)];
  const [smokeCommand, ...smokeArgs] = command('smoke.mjs');
  const { code, output } = await runAsync(smokeCommand, smokeArgs, {
    cwd: project,
    env: {
      ...process.env,
      SMOKE_AGENT: JSON.stringify(command('agent.mjs')),
      DENO_DIR: path.join(cache, 'deno-dir'),
      DENO_NO_UPDATE_CHECK: '1',
      NO_COLOR: '1',
    },
  });
  return { ok: code === 0, output: code === 0 ? output : `${output}exit ${String(code)}\n` };
}

/** README.md's support matrix names every pinned version. */
function checkReadme() {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('<!-- runtimes:start -->');
  const end = readme.indexOf('<!-- runtimes:end -->');
  if (start === -1 || end < start) {
    failures.push('README.md has no <!-- runtimes:start --> … <!-- runtimes:end --> section');
    return;
  }
  const section = readme.slice(start, end);
  for (const runtime of pinned) {
    if (!section.includes(runtime.version)) {
      failures.push(`README.md's support matrix does not name ${runtime.version}`);
    }
  }
}

const work = mkdtempSync(path.join(tmpdir(), 'buzz-meta-runtimes-'));
const rows = [];
try {
  const downloadStart = Date.now();
  installRuntimes();
  console.log(`  (${seconds(Date.now() - downloadStart)})`);
  const projectStart = Date.now();
  const project = makeProject(work);
  console.log(`  (${seconds(Date.now() - projectStart)})`);
  for (const runtime of runtimes) {
    const title = `${runtime.label} (${runtime.version})`;
    console.log(`\n${title}`);
    const before = Date.now();
    const result = await smoke(runtime, project);
    const took = Date.now() - before;
    process.stdout.write(result.output.replace(/^(?=.)/gm, '  '));
    rows.push(`  ${title.padEnd(24)} ${result.ok ? 'ok    ' : 'FAILED'} ${seconds(took)}`);
    if (!result.ok) failures.push(`${title}: the smoke suite failed`);
  }
  checkReadme();
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

console.log(`\nruntime matrix (buzz-meta ${pkg.version}, packed):`);
console.log(rows.join('\n'));
for (const failure of failures) console.error(`  ✗ ${failure}`);
console.log(`total ${seconds(Date.now() - started)}`);
if (failures.length > 0) {
  console.error(`check:runtimes FAILED (${String(failures.length)} problem(s))`);
  process.exit(1);
}
console.log('check:runtimes OK');
