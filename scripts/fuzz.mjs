#!/usr/bin/env node
// `npm run fuzz`: run the property tests (parsers, canonicalizer, ...) for about a million
// generated cases in total, and print the total that actually ran.
//
// Every property test takes its case count from test/support/fuzz.ts (`FAST_CHECK_RUNS`).
// 1. Calibrate: run the test files that import fast-check with FAST_CHECK_RUNS=1 and count the
//    properties that follow the knob (they run 1 case) and the cases of those with a fixed budget
//    of their own (> 1 case).
// 2. Run those files with FAST_CHECK_RUNS = ceil((TARGET - fixed cases) / scaled properties) and
//    count again: the printed total is what ran, not a product.
// The counting is done by test/support/fast-check.setup.ts (FUZZ_COUNT_FILE).
//
// Environment: FUZZ_TOTAL (default 1000000) is the target; FAST_CHECK_RUNS, when set, skips the
// calibration and is used as is; FUZZ_FILES (space-separated test file filters) limits the run;
// FUZZ_PROPERTY_MS bounds each property's time (it then passes with the cases it ran).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const target = Number(process.env.FUZZ_TOTAL ?? 1_000_000);
if (!Number.isSafeInteger(target) || target < 1) {
  console.error(`FUZZ_TOTAL must be a positive integer, got ${String(process.env.FUZZ_TOTAL)}`);
  process.exit(2);
}
/** The test files that import fast-check: the only ones that can hold a property. */
function propertyFiles() {
  const files = readdirSync(path.join(root, 'test'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
  return files
    .filter((file) => /from '(?:fast-check|@fast-check\/vitest)'/.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(root, file))
    .sort();
}

const given = (process.env.FUZZ_FILES ?? '').split(/\s+/).filter((f) => f !== '');
const filters = given.length > 0 ? given : propertyFiles();
const reportDir = path.join(root, 'reports', 'fuzz');
mkdirSync(reportDir, { recursive: true });

/** Runs vitest once with the given per-property budget; returns the per-file tallies. */
function runSuite(label, runs, files) {
  const countFile = path.join(reportDir, `${label}.jsonl`);
  rmSync(countFile, { force: true });
  const started = process.hrtime.bigint();
  const result = spawnSync(
    path.join(root, 'node_modules', '.bin', 'vitest'),
    ['run', '--testTimeout=0', '--hookTimeout=0', '--reporter=default', ...files],
    {
      cwd: root,
      stdio: label === 'calibrate' ? ['ignore', 'ignore', 'inherit'] : 'inherit',
      env: { ...process.env, FAST_CHECK_RUNS: String(runs), FUZZ_COUNT_FILE: countFile },
    },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rows = existsSync(countFile)
    ? readFileSync(countFile, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line))
    : [];
  const properties = rows.reduce((sum, row) => sum + row.properties, 0);
  const cases = rows.reduce((sum, row) => sum + row.cases, 0);
  return { status: result.status ?? 1, seconds, rows, properties, cases };
}

let runs;
let files = filters;
if (process.env.FAST_CHECK_RUNS !== undefined && process.env.FAST_CHECK_RUNS !== '') {
  runs = Number(process.env.FAST_CHECK_RUNS);
  console.log(`fuzz: FAST_CHECK_RUNS=${runs} given, skipping calibration`);
} else {
  const calibration = runSuite('calibrate', 1, filters);
  if (calibration.status !== 0 || calibration.properties === 0) {
    console.error(`fuzz: calibration run failed (exit ${calibration.status}, ${calibration.properties} properties)`);
    process.exit(1);
  }
  // A property that ran more than one case with FAST_CHECK_RUNS=1 has a budget of its own.
  const all = calibration.rows.flatMap((row) => row.runs);
  const scaled = all.filter((n) => n <= 1).length;
  const fixed = all.filter((n) => n > 1).reduce((sum, n) => sum + n, 0);
  if (scaled === 0) {
    console.error('fuzz: no property test reads FAST_CHECK_RUNS (test/support/fuzz.ts numRuns)');
    process.exit(1);
  }
  runs = Math.max(1, Math.ceil(Math.max(target - fixed, 0) / scaled));
  // Only the files that have properties run again.
  files = calibration.rows.filter((row) => row.properties > 0).map((row) => row.file);
  console.log(
    `fuzz: ${all.length} properties in ${calibration.rows.length} files ` +
      `(${scaled} follow FAST_CHECK_RUNS, ${all.length - scaled} fixed at ${fixed} cases); ` +
      `target ${target} cases -> FAST_CHECK_RUNS=${runs}`,
  );
}

const run = runSuite('run', runs, files);
console.log('');
for (const row of run.rows.filter((r) => r.properties > 0)) {
  console.log(
    `  ${String(row.cases).padStart(9)} cases  ${String(row.properties).padStart(3)} properties  ${row.file}`,
  );
}
const interrupted = run.rows.reduce((sum, row) => sum + (row.interrupted ?? 0), 0);
const bound = process.env.FUZZ_PROPERTY_MS ?? '';
console.log(
  `fuzz: ${run.cases} cases over ${run.properties} properties in ${run.seconds.toFixed(1)} s ` +
    `(FAST_CHECK_RUNS=${runs}` +
    (bound === '' ? '' : `, FUZZ_PROPERTY_MS=${bound}: ${interrupted} properties stopped at the bound`) +
    `, exit ${run.status})`,
);
process.exit(run.status);
