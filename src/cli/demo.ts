/**
 * `buzz-meta demo`: runs examples/demo.ts of a checkout (the demo drives the example agents,
 * which are not part of the published package), with the same exit code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CliError } from './cli-error.js';

/** Runs the demo of the checkout this command lives in; returns its exit code. */
export function runDemo(): number {
  // dist/cli/demo.js and src/cli/demo.ts are both two levels below the package root.
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const demo = `${root}examples/demo.ts`;
  if (!existsSync(demo)) {
    throw new CliError(
      'demo: the demo runs from a checkout of buzz-meta (npm ci && npm run demo); this install has no examples/',
    );
  }
  const run = spawnSync(process.execPath, ['--import', 'tsx', demo], { cwd: root, stdio: 'inherit' });
  return run.status ?? 1;
}
