import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig, mergeConfig, type ViteUserConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * Runs the files that failed last time first, then the quickest first: a mutant is killed by its
 * first failing test (Stryker bails there), so the files that just killed one, and the cheap
 * ones, should come before the slow signature-heavy files. Vitest's own order is the reverse
 * (longest first), which suits a full run on many workers, not a bail on one.
 */
class KillersFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const rank = (file: TestSpecification): [number, number] => {
      const key = `${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`;
      const result = cache.getFileTestResults(key);
      if (result !== undefined) return [result.failed ? 0 : 1, result.duration];
      return [2, cache.getFileStats(key)?.size ?? Number.MAX_SAFE_INTEGER];
    };
    const ranked = files.map((file) => ({ file, rank: rank(file) }));
    ranked.sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1]);
    return Promise.resolve(ranked.map(({ file }) => file));
  }
}

/**
 * The suite as StrykerJS runs it (`stryker.config.json` names this file): once per mutant, inside
 * Stryker's sandbox, in its own worker processes.
 *
 * - Tests that run code in a child process or from `dist/` are left out: the active mutant lives in
 *   the worker's memory, so those tests cannot kill it, and the sandbox holds no `dist/`. The
 *   deliveries at the default bounds (up to 32 MiB) and the tsc run over TSDoc examples stay in
 *   `npm test`: `test/envelope/limits.test.ts` checks the same code with small limits.
 * - Each property runs 100 cases with a fixed seed: `@fast-check/vitest` puts the seed into each
 *   test's name, and Stryker re-selects tests by name for every mutant.
 * - Test files share one module graph (`isolate: false`): re-importing zod and nostr-tools for every
 *   file of every mutant run would cost more than the tests themselves.
 * - `MUTATION_TESTS` (comma-separated globs) narrows the suite to one scope's tests. Stryker's own
 *   `testFiles` would too, but it also gives module-level (static) mutants a test filter, and a
 *   filtered run switches its mutant on after the modules have loaded: a mutated table is never seen.
 * - Files run in the order above ({@link KillersFirst}).
 */
const scopeTests = (process.env.MUTATION_TESTS ?? '').split(',').filter((glob) => glob !== '');

const config: ViteUserConfig = mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        'test/examples/**',
        'test/dedup/pool.test.ts',
        'test/dedup/redis-faults.test.ts',
        'test/dedup/redis-missing.test.ts',
        'test/acp/races-stdio.test.ts',
        'test/defaults/**',
        'test/docs/**',
        'test/cli/input-stream.test.ts',
        'test/cli/executable.test.ts',
        'test/proxy/lifecycle.test.ts',
      ],
      env: { FAST_CHECK_RUNS: '100', FAST_CHECK_SEED: '1' },
      isolate: false,
      sequence: { sequencer: KillersFirst },
    },
  }),
);

// mergeConfig joins arrays; a scope replaces the suite's include instead.
if (scopeTests.length > 0 && config.test !== undefined) config.test.include = scopeTests;

export default config;
