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
// 4. With `--measure N`: the median wall time of N fresh `node` processes that import
//    `buzz-meta`, minus the median of N that import nothing (docs/performance.md).
// Nothing is skipped: without the registry the install fails, and so does this check.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

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

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    throw new Error(`${command} ${args.join(' ')} failed (exit ${String(result.status)})`);
  }
  return result.stdout;
}

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
  run(process.execPath, ['--input-type=module', '-e', code], cwd);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const work = mkdtempSync(path.join(tmpdir(), 'buzz-meta-install-'));
try {
  console.log('npm pack');
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], root).replace(/^[^[]*/, ''));
  const tarball = path.join(work, packed[0].filename);

  const project = path.join(work, 'project');
  run('mkdir', ['-p', project], work);
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'scratch', version: '0.0.0', private: true, type: 'module' }, null, 2),
  );
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
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...deps], project);
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
  run(process.execPath, ['--input-type=module', '-e', probe], project);
  console.log('  ok');

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
