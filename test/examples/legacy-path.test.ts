/**
 * examples/legacy-path-test.ts, the legacy-path test docs/recipes.md shows, passes as a user runs
 * it (`node --import tsx --test`): every era's prompt text from `renderPromptText` reaches the
 * example agent as scraped context; questions are answered, an admin's command is not run.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

test('examples/legacy-path-test.ts passes under node --test: ten cases, none failed', () => {
  const file = fileURLToPath(new URL('../../examples/legacy-path-test.ts', import.meta.url));
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  const counts = run.stdout.split('\n').filter((line) => /^# (?:tests|pass|fail) \d+$/.test(line));
  expect({ status: run.status, counts }).toEqual({ status: 0, counts: ['# tests 10', '# pass 10', '# fail 0'] });
}, 70_000);
