// CI scope of the mutation run (`npm run mutation:ci`, called by .ci/run): the two files whose
// bugs would turn a forged envelope into a "verified" one. Their mutants are tried against the
// test files that kill them by a failing assertion. A mutant no test kills runs every test that
// covers it, so a file that only covers (the vectors, both signature backends, the tampered-field
// list, the default bounds, the redaction property) adds time and no kill; those run in `npm test`
// and in `npm run mutation`. A mutant that a run over every file only timed out on is not killed
// by a timeout here: it needs an assertion in one of these files. Everything else comes from
// stryker.config.json, so the two runs cannot drift apart.
import { readFileSync } from 'node:fs';

const base = JSON.parse(readFileSync(new URL('./stryker.config.json', import.meta.url), 'utf8'));

export default {
  ...base,
  mutate: ['src/envelope/canonical-json.ts', 'src/envelope/verify.ts'],
  testFiles: [
    'test/envelope/failure-messages.test.ts',
    'test/envelope/canonical-json.test.ts',
    'test/envelope/escape-scan.test.ts',
    'test/envelope/hashing-paths.test.ts',
    'test/envelope/build-and-schema.test.ts',
    'test/envelope/event-checks.test.ts',
    'test/envelope/hostile-values.test.ts',
    'test/envelope/job.test.ts',
    'test/envelope/with-envelope.test.ts',
    'test/envelope/pinned-key.test.ts',
    'test/envelope/length-precheck.test.ts',
    'test/read/read.test.ts',
    'test/messages.test.ts',
    'test/keys.test.ts',
    'test/cli/cli.test.ts',
    'test/acp/handlers.test.ts',
  ],
  reporters: ['clear-text', 'progress-append-only', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation-ci.json' },
  // thresholds (break: 90, the goal) come from stryker.config.json unchanged.
};
