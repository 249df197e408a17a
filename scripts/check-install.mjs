#!/usr/bin/env node
// A packed install, as a new user gets it (`npm run check:install`; needs the npm registry, so
// CI runs it; run `npm run build` first only if you want a fresh dist: `npm pack` builds anyway).
//
// 1. Packs the package (`npm pack`) and installs the tarball into a scratch project with a plain
//    `npm install` (no lockfile of ours), next to zod, the ACP SDK, TypeScript, @types/node and
//    redis (the optional peer of `buzz-meta/redis`).
// 2. Checks that the install holds exactly one copy of each @noble package: buzz-meta pins the
//    versions nostr-tools pins, so there is one secp256k1 implementation, not two or three.
// 3. Type-checks every ```ts block of README.md there (strict, NodeNext), importing `buzz-meta`
//    and `buzz-meta/host` as a user would, imports both entry points with plain node, and loads
//    the reader's libsecp256k1 backend (it reads nostr-wasm's binary from the installed package).
// 4. The README's new project, taken from README.md by markers (HTML comments right before the
//    fenced blocks): `<!-- scratch:setup -->` before a ```sh block of set-up commands,
//    `<!-- scratch:agent -->` before the ```ts agent (written to agent.ts) and
//    `<!-- scratch:host -->` before the ```ts host (host.ts); a marker may name another file
//    (`<!-- scratch:agent first-agent.ts -->`) when the host spawns that name. The set-up block
//    runs as written with `sh`, line by line (any failing line fails the check), in a folder
//    called buzz-meta that holds the tarball, as the README's checkout does after `npm pack`;
//    the folder it ends in is the project. Then `tsc --noEmit` with
//    the project's own tsconfig must pass, and `node --import tsx` on the host must exit 0 with
//    `end_turn` as its last line of output.
// 5. With `--measure N`: the median wall time of N fresh `node` processes that import
//    `buzz-meta`, minus the median of N that import nothing (docs/performance.md).
// Nothing is skipped: without the registry the install fails, and so does this check.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packIntoProject, run } from './scratch.mjs';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const measureAt = process.argv.indexOf('--measure');
const samples = measureAt === -1 ? 0 : Number(process.argv[measureAt + 1] ?? 10);
const keep = process.argv.includes('--keep');
const failures = [];
const fail = (message) => {
  failures.push(message);
  console.error(`  ✗ ${message}`);
};

/** Every installed copy of a package: its version and where it sits under node_modules. */
function copiesOf(name, dir) {
  const found = [];
  const walk = (modules) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const scoped = entry.startsWith('@');
      const names = scoped ? readdirSync(path.join(modules, entry)).map((sub) => `${entry}/${sub}`) : [entry];
      for (const child of names) {
        const where = path.join(modules, child);
        if (child === name) {
          const { version } = JSON.parse(readFileSync(path.join(where, 'package.json'), 'utf8'));
          found.push(`${version} at ${path.relative(dir, where)}`);
        }
        walk(path.join(where, 'node_modules'));
      }
    }
  };
  walk(path.join(dir, 'node_modules'));
  return found;
}

/** The body of every fenced block of `markdown` opened with exactly ```ts. */
function tsBlocks(markdown) {
  return markdown
    .split('\n```ts\n')
    .slice(1)
    .map((rest) => rest.slice(0, rest.indexOf('\n```')) + '\n');
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Wall time of one fresh node process running `code`, in ms. */
function timeProcess(cwd, code) {
  const start = process.hrtime.bigint();
  run(process.execPath, ['--input-type=module', '-e', code], { cwd });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** What each scratch marker stands before: the fence's info string and the default file name. */
const MARKERS = {
  setup: { info: 'sh' },
  agent: { info: 'ts', file: 'agent.ts' },
  host: { info: 'ts', file: 'host.ts' },
};

/**
 * The README's marked blocks: `{ setup, agent, host }`, each `{ file, body }`, or a list of what is
 * wrong with the markers.
 */
function markedBlocks(markdown) {
  const found = {};
  const problems = [];
  const marker = /<!-- scratch:(\w+)(?: ([\w.-]+))? -->\n+```(\w*)\n/g;
  for (const match of markdown.matchAll(marker)) {
    const [, name, file, info] = match;
    const expected = Object.hasOwn(MARKERS, name) ? MARKERS[name] : undefined;
    const start = match.index + match[0].length;
    const end = markdown.indexOf('\n```', start - 1);
    if (expected === undefined) problems.push(`unknown marker scratch:${name}`);
    else if (info !== expected.info) {
      problems.push(`scratch:${name} stands before a \`\`\`${info} block, not \`\`\`${expected.info}`);
    } else if (name in found) problems.push(`scratch:${name} appears twice`);
    else found[name] = { file: file ?? expected.file, body: markdown.slice(start, end + 1) };
  }
  for (const name of Object.keys(MARKERS)) {
    if (!(name in found)) problems.push(`no <!-- scratch:${name} --> marker before a fenced block`);
  }
  return problems.length > 0 ? { problems } : found;
}

/**
 * Step 4: the README's set-up block, run as written next to the tarball, then its agent and host
 * compiled with the project's tsc and run.
 */
function readmeProject(work, tarball) {
  console.log("the README's new project: set-up block, tsc, the host running the agent");
  const blocks = markedBlocks(readFileSync(path.join(root, 'README.md'), 'utf8'));
  if ('problems' in blocks) {
    for (const problem of blocks.problems) fail(`README.md: ${problem}`);
    return;
  }
  const checkout = path.join(work, 'readme', 'buzz-meta');
  mkdirSync(checkout, { recursive: true });
  copyFileSync(tarball, path.join(checkout, path.basename(tarball)));
  // One `{ line } || exit` per command line (continuations joined), so a failing command in an
  // `a && b` line fails the whole block, as `sh -e` alone would not; the last line notes where
  // the block left off.
  const lines = blocks.setup.body
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const script = [...lines.map((line) => `{ ${line}\n} || exit $?`), 'pwd > "$SCRATCH_PROJECT"'].join('\n');
  const where = path.join(work, 'project-dir');
  const started = Date.now();
  const setup = spawnSync('sh', ['-c', script], {
    cwd: checkout,
    env: { ...process.env, SCRATCH_PROJECT: where },
    encoding: 'utf8',
  });
  if (setup.status !== 0) {
    fail(`the README's set-up block failed (exit ${String(setup.status)}):\n${setup.stdout}${setup.stderr}`);
    return;
  }
  const project = readFileSync(where, 'utf8').trim();
  console.log(`  ${String(lines.length)} set-up line(s) ran in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  writeFileSync(path.join(project, blocks.agent.file), blocks.agent.body);
  writeFileSync(path.join(project, blocks.host.file), blocks.host.body);
  const tsc = spawnSync(path.join(project, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', '.'], {
    cwd: project,
    encoding: 'utf8',
  });
  if (tsc.status !== 0) {
    fail(`the README's agent and host do not compile in its new project:\n${tsc.stdout}${tsc.stderr}`);
    return;
  }
  const version = spawnSync(path.join(project, 'node_modules', '.bin', 'tsc'), ['--version'], { encoding: 'utf8' });
  console.log(
    `  ${blocks.agent.file} and ${blocks.host.file} compile (${version.stdout.trim()}, the project's tsconfig)`,
  );
  const host = spawnSync(process.execPath, ['--import', 'tsx', blocks.host.file], {
    cwd: project,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const last = host.stdout.trimEnd().split('\n').at(-1);
  if (host.status === 0 && last === 'end_turn') console.log(`  node --import tsx ${blocks.host.file}: end_turn`);
  else fail(`node --import tsx ${blocks.host.file} exited ${String(host.status)}:\n${host.stdout}${host.stderr}`);
}

const work = mkdtempSync(path.join(tmpdir(), 'buzz-meta-install-'));
try {
  const { tarball, project } = packIntoProject(root, work, 'scratch');
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2022'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: ['node'],
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
          noEmit: true,
        },
        include: ['*.ts'],
      },
      null,
      2,
    ),
  );
  const dev = pkg.devDependencies;
  const deps = [
    tarball,
    `zod@${dev.zod}`,
    `@agentclientprotocol/sdk@${dev['@agentclientprotocol/sdk']}`,
    `typescript@${dev.typescript}`,
    `@types/node@${dev['@types/node']}`,
    // The optional peer the README's pool example (`buzz-meta/redis`) imports, as its users install it.
    `redis@${dev.redis}`,
  ];
  console.log(`npm install (scratch project, no lockfile of ours): ${deps.map((d) => path.basename(d)).join(' ')}`);
  const started = Date.now();
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...deps], { cwd: project });
  console.log(`  installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  console.log('one copy of each @noble package');
  for (const name of ['@noble/curves', '@noble/hashes']) {
    const copies = copiesOf(name, project);
    if (copies.length === 1) console.log(`  ${name}: ${copies[0]}`);
    else fail(`${name}: ${String(copies.length)} copies (${copies.join('; ')})`);
  }

  console.log('README ```ts blocks type-check against the installed package');
  const blocks = tsBlocks(readFileSync(path.join(root, 'README.md'), 'utf8'));
  if (blocks.length === 0) fail('README.md has no ```ts block');
  blocks.forEach((body, index) => writeFileSync(path.join(project, `readme-${String(index + 1)}.ts`), body));
  const tsc = spawnSync(path.join(project, 'node_modules', '.bin', 'tsc'), ['-p', '.'], {
    cwd: project,
    encoding: 'utf8',
  });
  if (tsc.status === 0) console.log(`  ${String(blocks.length)} block(s) compile`);
  else fail(`README blocks do not compile:\n${tsc.stdout}${tsc.stderr}`);

  console.log("both entry points import with plain node, and the reader's libsecp256k1 backend loads");
  const probe = [
    "import { createBuzzReader } from 'buzz-meta';",
    "await import('buzz-meta/host');",
    "const reader = await createBuzzReader({ backend: 'wasm' });",
    "if (reader.backend !== 'wasm') throw new Error('the wasm backend did not load');",
  ].join('\n');
  run(process.execPath, ['--input-type=module', '-e', probe], { cwd: project });
  console.log('  ok');

  readmeProject(work, tarball);

  if (samples > 0) {
    const empty = [];
    const loaded = [];
    // Interleaved, so drift on a shared machine hits both series alike.
    for (let i = 0; i < samples; i++) {
      empty.push(timeProcess(project, ''));
      loaded.push(timeProcess(project, "await import('buzz-meta');"));
    }
    const base = median(empty);
    const full = median(loaded);
    console.log(
      `cold import of buzz-meta, median of ${String(samples)} fresh processes: ` +
        `${full.toFixed(0)} ms per process, ${base.toFixed(0)} ms for an empty one, ` +
        `import ≈ ${(full - base).toFixed(0)} ms`,
    );
  }
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`check:install FAILED (${String(failures.length)} problem(s))`);
  process.exit(1);
}
console.log('check:install OK');
