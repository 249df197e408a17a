/**
 * Vitest setup file (see `vitest.config.ts`) for fast-check runs driven by environment variables:
 *
 * - `FAST_CHECK_SEED`: a fixed global seed, to replay a failure (`FAST_CHECK_SEED=<seed from the
 *   report> npm test`). vitest.mutation.config.ts fixes it too: `@fast-check/vitest` puts the seed
 *   into each test's name, and StrykerJS re-selects tests by name for every mutant.
 * - `FUZZ_PROPERTY_MS`: a time bound per property (`npm run fuzz` in CI): a property stops after
 *   that many milliseconds of cases and passes with the cases it ran (`interruptAfterTimeLimit`),
 *   so a costly property cannot eat the whole budget; the count below says what ran.
 * - `FUZZ_COUNT_FILE`: `npm run fuzz` (scripts/fuzz.mjs) sets it to count how many properties
 *   ran in each test file and how many cases they executed; one JSON line per file is appended,
 *   so the fuzz total in docs/testing.md is measured, not multiplied out. Counting is a global
 *   fast-check plugin that only observes (`onAllRunsComplete`); reporting stays fast-check's.
 *
 * With none of them set this file does nothing.
 *
 * @packageDocumentation
 */
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll } from 'vitest';

const seedText = process.env.FAST_CHECK_SEED ?? '';
if (seedText !== '') {
  const seed = Number(seedText);
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(`FAST_CHECK_SEED must be an integer, got ${JSON.stringify(seedText)}`);
  }
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
}

const propertyMsText = process.env.FUZZ_PROPERTY_MS ?? '';
if (propertyMsText !== '') {
  const propertyMs = Number(propertyMsText);
  if (!Number.isSafeInteger(propertyMs) || propertyMs < 1) {
    throw new RangeError(`FUZZ_PROPERTY_MS must be a positive integer, got ${JSON.stringify(propertyMsText)}`);
  }
  // fast-check is loaded once per worker, this file once per test file: install the bound once.
  const store = globalThis as typeof globalThis & { buzzMetaTimeBound?: WeakSet<object> };
  const bounded = (store.buzzMetaTimeBound ??= new WeakSet());
  if (!bounded.has(fc.installGlobalPlugin)) {
    bounded.add(fc.installGlobalPlugin);
    fc.installGlobalPlugin(fc.interruptAfterTimeLimit(propertyMs));
  }
}

interface FuzzTally {
  properties: number;
  cases: number;
  skipped: number;
  /** Properties stopped by `FUZZ_PROPERTY_MS` before their case count. */
  interrupted: number;
  /** Cases run by each property, in order. */
  runs: number[];
}

/** Per-process state: fast-check is loaded once per worker, this file once per test file. */
interface FuzzCounter {
  /** fast-check instances that already carry the counting plugin. */
  instrumented: WeakSet<object>;
  /** Tally of the test file now running; reset by each file's setup. */
  tally: FuzzTally;
}

const countFile = process.env.FUZZ_COUNT_FILE ?? '';
if (countFile !== '') {
  const store = globalThis as typeof globalThis & { buzzMetaFuzzCounter?: FuzzCounter };
  const counter = (store.buzzMetaFuzzCounter ??= {
    instrumented: new WeakSet(),
    tally: emptyTally(),
  });
  counter.tally = emptyTally();
  if (!counter.instrumented.has(fc.installGlobalPlugin)) {
    counter.instrumented.add(fc.installGlobalPlugin);
    // Observes only: fast-check's own reporting (and failures) stay as they are.
    fc.installGlobalPlugin((): fc.PluginInstance<unknown> => ({
      onAllRunsComplete(details) {
        const tally = counter.tally;
        tally.properties += 1;
        tally.cases += details.numRuns;
        tally.skipped += details.numSkips;
        if (details.interrupted) tally.interrupted += 1;
        tally.runs.push(details.numRuns);
      },
    }));
  }
  // Vitest parses the first parameter as a fixture list, so it must be an object pattern.
  // eslint-disable-next-line no-empty-pattern -- see above
  afterAll(({}, suite) => {
    appendFileSync(countFile, `${JSON.stringify({ file: suite.name, ...counter.tally })}\n`);
  });
}

function emptyTally(): FuzzTally {
  return { properties: 0, cases: 0, skipped: 0, interrupted: 0, runs: [] };
}
