// CI scope of the mutation run (`npm run mutation:ci`, called by .ci/run): the two files whose
// bugs would turn a forged envelope into a "verified" one. Everything else comes from
// stryker.config.json, so the two runs cannot drift apart.
import { readFileSync } from 'node:fs';

const base = JSON.parse(readFileSync(new URL('./stryker.config.json', import.meta.url), 'utf8'));

export default {
  ...base,
  mutate: ['src/envelope/canonical-json.ts', 'src/envelope/verify.ts'],
  reporters: ['clear-text', 'progress-append-only', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation-ci.json' },
  // thresholds (break: 90, the goal) come from stryker.config.json unchanged.
};
