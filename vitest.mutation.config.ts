import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

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
 */
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        'test/examples/**',
        'test/dedup/pool.test.ts',
        'test/dedup/redis-faults.test.ts',
        'test/defaults/**',
        'test/docs/**',
        'test/cli/input-stream.test.ts',
      ],
      env: { FAST_CHECK_RUNS: '100', FAST_CHECK_SEED: '1' },
      isolate: false,
    },
  }),
);
