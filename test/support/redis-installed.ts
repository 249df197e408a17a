/**
 * Whether this machine can run the Redis suites, and which test files those are. vitest.config.ts
 * applies the rule: outside CI (`CI` unset) a machine without redis-server leaves those files out
 * with one line saying what to install; in CI they run and fail in their `beforeAll`, so a CI
 * machine without Redis is never green by skipping.
 *
 * @packageDocumentation
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** What a Debian or Ubuntu machine needs (the package brings redis-cli too). */
export const REDIS_INSTALL_COMMAND = 'apt-get install redis-server';

/** Whether `redis-server` and `redis-cli` (the cluster tests create the cluster with it) are on the PATH. */
export function redisInstalled(): boolean {
  return ['redis-server', 'redis-cli'].every(
    (command) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0,
  );
}

/** Whether this is a CI run: `CI` set to anything but empty, `0` or `false`, as CI services set it. */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase() ?? '';
  return value !== '' && value !== '0' && value !== 'false';
}

/** The test files under `testDir` that start a Redis server or cluster (they import the support modules). */
export function redisTestFiles(testDir: string): string[] {
  const uses = /from '(?:\.\.\/)+support\/redis-(?:server|cluster)\.js'/;
  return readdirSync(testDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .filter((file) => uses.test(readFileSync(path.join(testDir, file), 'utf8')))
    .map((file) => path.join(path.basename(testDir), file).split(path.sep).join('/'))
    .sort();
}

/**
 * The test files to leave out on this machine, each relative to the root: the Redis suites when
 * Redis is missing outside CI, else none. Prints the one line that says so.
 */
export function redisFilesToSkip(testDir: string): string[] {
  if (isCi() || redisInstalled()) return [];
  const files = redisTestFiles(testDir);
  console.warn(
    `Skipping the ${String(files.length)} Redis test files: redis-server is not installed ` +
      `(${REDIS_INSTALL_COMMAND}; with CI set they fail instead).`,
  );
  return files;
}
