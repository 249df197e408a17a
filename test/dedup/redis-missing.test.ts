/**
 * `npm test` on a machine without redis-server: outside CI the Redis suites are left out with one
 * line naming what to install; in CI they fail with that line's reason and nothing misleading after
 * it. Each case runs vitest itself over one Redis suite, with a PATH that holds only `node`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { redisTestFiles } from '../support/redis-installed.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = mkdtempSync(path.join(tmpdir(), 'buzz-meta-no-redis-'));
symlinkSync(process.execPath, path.join(bin, 'node'));
afterAll(() => {
  rmSync(bin, { recursive: true, force: true });
});

/** Runs vitest over one Redis suite without redis-server on the PATH (a file left out is no failure). */
function vitestWithoutRedis(ci: string | undefined): Promise<{ status: number | null; output: string }> {
  // Only what a shell would pass on: none of the outer run's VITEST_* worker variables.
  const env: NodeJS.ProcessEnv = { HOME: process.env.HOME, PATH: bin, NO_COLOR: '1', FORCE_COLOR: '0' };
  if (ci !== undefined) env.CI = ci;
  const args = ['node_modules/vitest/vitest.mjs', 'run', '--passWithNoTests', 'test/dedup/pool.test.ts'];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: root, env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : (error.code as number | null), output: stdout + stderr });
    });
  });
}

// Both runs at once: most of each is vitest starting.
const outside = vitestWithoutRedis(undefined);
const inCi = vitestWithoutRedis('true');

describe('npm test without redis-server', () => {
  it('the Redis suites are the files that start a server or a cluster', () => {
    expect(redisTestFiles(path.join(root, 'test'))).toEqual([
      'test/dedup/pool.test.ts',
      'test/dedup/redis-cluster.test.ts',
      'test/dedup/redis-failover.test.ts',
      'test/dedup/redis-faults.test.ts',
      'test/dedup/redis-store.test.ts',
      'test/examples/pooled-agent.test.ts',
      'test/proxy/redis-dedup.test.ts',
    ]);
  });

  it('outside CI: one line says what to install, and the Redis suites are left out', { timeout: 60_000 }, async () => {
    const { status, output } = await outside;
    const line =
      'Skipping the 7 Redis test files: redis-server is not installed ' +
      '(apt-get install redis-server; with CI set they fail instead).';
    expect(output.split('\n').filter((text) => text.includes('redis-server'))).toEqual([line]);
    expect(output).toContain('No test files found, exiting with code 0');
    expect(status).toBe(0);
  });

  it(
    'in CI: the Redis suites fail, saying what to install, and nothing misleading follows',
    { timeout: 60_000 },
    async () => {
      const { status, output } = await inCi;
      expect(output).not.toContain('Skipping');
      expect(output).toContain('Error: redis-server is not installed: apt-get install redis-server');
      expect(output).not.toContain('Cannot read properties of undefined');
      expect(output).toMatch(/Test Files {2}1 failed \(1\)/);
      expect(status).toBe(1);
    },
  );
});
