import { configDefaults, defineConfig } from 'vitest/config';
import { redisFilesToSkip } from './test/support/redis-installed.js';

/** Coverage floor for the modules that decide trust (envelope parsing/verification, drafts, keys) or handling (dedup). */
const critical = { lines: 95, branches: 90 } as const;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Without redis-server outside CI, the Redis suites are left out with one line saying so.
    exclude: [...configDefaults.exclude, 'bench/**', 'dist/**', '.stryker-tmp/**', ...redisFilesToSkip('test')],
    // A property test of 1000 cases takes a second or two alone and several times that on a
    // shared 2-core machine under load, past vitest's default 5 s; no test asserts time.
    testTimeout: 20_000,
    // FAST_CHECK_SEED and FUZZ_COUNT_FILE (`npm run fuzz`); a no-op when neither is set.
    setupFiles: ['test/support/fast-check.setup.ts'],
    // Type-level tests (`*.test-d.ts`, `expectTypeOf`) run with `--typecheck` (`npm test`).
    typecheck: {
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.d.ts'],
      reporter: ['text', 'text-summary', 'json-summary', 'html'],
      reportsDirectory: 'coverage',
      thresholds: {
        'src/envelope/**': critical,
        'src/draft/**': critical,
        'src/keys.ts': critical,
        'src/npub.ts': critical,
        // Reached by the deterministic tests alone, so the property tests' random seeds only add to it.
        'src/legacy/**': critical,
        'src/dedup/**': critical,
      },
    },
  },
});
