// CI scope of the mutation run (`npm run mutation:ci`, called by .ci/run): the two files whose
// bugs would turn a forged envelope into a "verified" one, tried against the tests of the read
// path only. The acp, dedup, cli and legacy tests also read envelopes, but they read them to get
// at something else, many of them wait on real timers and Redis, and none checks a verdict or a
// message the envelope tests do not: for these two files they add time, not kills
// (docs/testing.md, "Mutation"). Everything else comes from stryker.config.json, so the two runs
// cannot drift apart.
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
  ],
  reporters: ['clear-text', 'progress-append-only', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation-ci.json' },
  // thresholds (break: 90, the goal) come from stryker.config.json unchanged.
};
