/**
 * A real Redis Cluster for tests: three masters (no replicas) on free loopback ports, each a
 * `redis-server --cluster-enabled yes` with its own directory, joined by `redis-cli --cluster
 * create`, and killed when the test process ends. `cluster-require-full-coverage no`, as
 * docs/dedup.md recommends; `enable-debug-command` so fault tests can freeze a master.
 *
 * @packageDocumentation
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, hasRedisServer, sendRedisCommand, waitUntilReady } from './redis-server.js';

/** A running three-master cluster. */
export interface RedisCluster {
  /** The masters' ports, in the order they were created. */
  readonly ports: readonly number[];
  /** `[{ host: '127.0.0.1', port }]` per master. */
  readonly nodes: readonly { readonly host: string; readonly port: number }[];
  /** Stops every node and removes their directories. */
  dispose(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A free port whose cluster bus port (+10000) is a valid port too. */
async function clusterPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port + 10_000 > 65_535 || taken.has(port)) continue;
    taken.add(port);
    return port;
  }
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${command} exited with ${String(code)}: ${output}`));
    });
  });
}

/** Starts three masters and creates the cluster; resolves once every node reports `cluster_state:ok`. */
export async function startRedisCluster(): Promise<RedisCluster> {
  if (!hasRedisServer()) throw new Error('redis-server is not installed: apt-get install -y redis-server');
  const taken = new Set<number>();
  const ports = [await clusterPort(taken), await clusterPort(taken), await clusterPort(taken)];
  const dir = mkdtempSync(path.join(tmpdir(), 'buzz-meta-cluster-'));
  const children: ChildProcess[] = [];
  for (const port of ports) {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--daemonize', 'no'];
    args.push('--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${String(port)}.conf`);
    args.push('--cluster-node-timeout', '2000', '--cluster-require-full-coverage', 'no');
    args.push('--save', '', '--appendonly', 'no', '--protected-mode', 'no', '--enable-debug-command', 'yes');
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    running.add(child);
    child.once('exit', () => running.delete(child));
    children.push(child);
  }
  await Promise.all(ports.map((port) => waitUntilReady(port)));
  await run('redis-cli', [
    '--cluster',
    'create',
    ...ports.map((port) => `127.0.0.1:${String(port)}`),
    '--cluster-replicas',
    '0',
    '--cluster-yes',
  ]);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const states = await Promise.all(ports.map((port) => sendRedisCommand(port, 'CLUSTER INFO')));
    if (states.every((info) => info.includes('cluster_state:ok'))) break;
    if (Date.now() > deadline) throw new Error('the test cluster did not reach cluster_state:ok within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    ports,
    nodes: ports.map((port) => ({ host: '127.0.0.1', port })),
    async dispose(): Promise<void> {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) {
                resolve();
                return;
              }
              child.once('exit', () => {
                resolve();
              });
              child.kill('SIGKILL');
            }),
        ),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
