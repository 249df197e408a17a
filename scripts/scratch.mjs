// What the packed-install checks share (scripts/check-install.mjs, scripts/check-runtimes.mjs):
// running a command that must succeed, and packing this package into a fresh ESM project.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
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

/**
 * Packs the package at `root` into `work` and makes an empty ESM project `work/project` (named
 * `name`) to install it into; returns both paths.
 */
export function packIntoProject(root, work, name) {
  console.log('npm pack');
  const tarball = packTarball(root, work);
  const project = path.join(work, 'project');
  mkdirSync(project);
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name, version: '0.0.0', private: true, type: 'module' }, null, 2),
  );
  return { tarball, project };
}
