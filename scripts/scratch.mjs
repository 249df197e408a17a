// What the packed-install checks share (scripts/check-install.mjs, scripts/check-runtimes.mjs):
// running a command that must succeed, and packing this package as a user gets it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * Runs `command` and returns its stdout; throws, after printing both streams, when it exits
 * non-zero. `options`: `cwd`, `env`, `input`, `timeout` (ms).
 */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    const why = result.error?.message ?? `exit ${String(result.status ?? result.signal)}`;
    throw new Error(`${command} ${args.join(' ')} failed (${why})`);
  }
  return result.stdout;
}

/** Packs the package at `root` into `destination` (`npm pack`, which builds first) and returns the tarball's path. */
export function packTarball(root, destination) {
  const packed = JSON.parse(
    run('npm', ['pack', '--json', '--pack-destination', destination], { cwd: root }).replace(/^[^[]*/, ''),
  );
  return path.join(destination, packed[0].filename);
}
