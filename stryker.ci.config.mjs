// CI scope of the mutation run (`npm run mutation:ci`, called by .ci/run): the two files whose
// bugs would turn a forged envelope into a "verified" one. Their mutants are tried against the
// tests that check verdicts and messages (every test that killed one of them is in these files);
// the tests that read envelopes only to get at something else (dedup, races, drafts, the legacy
// scraper, child processes) add time, not kills. Everything else comes from stryker.config.json,
// so the two runs cannot drift apart.
import { readFileSync } from 'node:fs';

const base = JSON.parse(readFileSync(new URL('./stryker.config.json', import.meta.url), 'utf8'));

export default {
  ...base,
  mutate: ['src/envelope/canonical-json.ts', 'src/envelope/verify.ts'],
  testFiles: [
    'test/envelope/**/*.test.ts',
    'test/read/**/*.test.ts',
    'test/shared/input-bounds.test.ts',
    'test/messages.test.ts',
    'test/keys.test.ts',
    'test/cli/cli.test.ts',
    'test/acp/handlers.test.ts',
  ],
  reporters: ['clear-text', 'progress-append-only', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation-ci.json' },
  // thresholds (break: 90, the goal) come from stryker.config.json unchanged.
};
