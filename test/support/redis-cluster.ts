/**
 * A real Redis Cluster for tests: three masters on free loopback ports, optionally with one
 * replica each, every node a `redis-server --cluster-enabled yes` with its own directory, joined
 * by `redis-cli --cluster create`, and killed when the test process ends.
 * `cluster-require-full-coverage no`, as docs/dedup.md recommends; `enable-debug-command` so
 * fault tests can freeze a master; a master can be SIGKILLed and its replica's promotion awaited.
 *
 * @packageDocumentation
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REDIS_INSTALL_COMMAND, redisInstalled } from './redis-installed.js';
import { freePort, sendRedisCommand, waitUntilReady } from './redis-server.js';

/** A running three-master cluster. */
export interface RedisCluster {
  /** The masters' ports at start-up, in the order they were created. */
  readonly ports: readonly number[];
  /** `[{ host: '127.0.0.1', port }]` per master at start-up. */
  readonly nodes: readonly { readonly host: string; readonly port: number }[];
  /** The port of the master serving `key`'s slot now (asked of a live node). */
  masterOf(key: string): Promise<number>;
  /** SIGKILLs the node on `port`; resolves once the process is gone. */
  kill(port: number): Promise<void>;
  /**
   * Resolves with the port of the replica promoted in place of the killed master on `port`, once
   * every live node reports it as master of that master's slots and `cluster_state:ok`.
   */
  promotedFor(port: number): Promise<number>;
  /** Stops every node and removes their directories. */
  dispose(): Promise<void>;
}

/** Options of {@link startRedisCluster}. */
export interface RedisClusterOptions {
  /** Replicas per master: 0 (default) or 1. */
  readonly replicas?: 0 | 1;
  /** `cluster-node-timeout` in ms (default 2000): how long a silent master takes to be failed over. */
  readonly nodeTimeoutMs?: number;
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

/** One line of `CLUSTER NODES`: the node's port, role flags and slot ranges. */
interface NodeLine {
  readonly id: string;
  readonly port: number;
  readonly flags: readonly string[];
  readonly masterId: string;
  readonly slots: readonly (readonly [number, number])[];
}

function nodeLines(text: string): NodeLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [id = '', address = '', flags = '', masterId = '', , , , , ...ranges] = line.trim().split(' ');
      const port = Number(/:(\d+)@/.exec(address)?.[1] ?? 0);
      const slots = ranges
        .filter((range) => !range.startsWith('['))
        .map((range): [number, number] => {
          const [from = 0, to = from] = range.split('-').map(Number);
          return [from, to];
        });
      return { id, port, flags: flags.split(','), masterId, slots };
    });
}

/** Polls `check` every 50 ms until it returns a value, for up to 20 s (CI machines can be loaded). */
async function poll<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`the test cluster: ${what} within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts three masters (and with `replicas: 1` three replicas) and creates the cluster; resolves
 * once every node reports `cluster_state:ok` and every replica is in sync with its master.
 */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisCluster> {
  if (!redisInstalled()) throw new Error(`redis-server is not installed: ${REDIS_INSTALL_COMMAND}`);
  const replicas = options.replicas ?? 0;
  const taken = new Set<number>();
  const all: number[] = [];
  for (let n = 0; n < 3 * (1 + replicas); n++) all.push(await clusterPort(taken));
  const dir = mkdtempSync(path.join(tmpdir(), 'buzz-meta-cluster-'));
  const children = new Map<number, ChildProcess>();
  for (const port of all) {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--daemonize', 'no'];
    args.push('--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${String(port)}.conf`);
    args.push('--cluster-node-timeout', String(options.nodeTimeoutMs ?? 2000));
    args.push('--cluster-require-full-coverage', 'no', '--repl-diskless-sync-delay', '0');
    args.push('--save', '', '--appendonly', 'no', '--protected-mode', 'no', '--enable-debug-command', 'yes');
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    running.add(child);
    child.once('exit', () => running.delete(child));
    children.set(port, child);
  }
  await Promise.all(all.map((port) => waitUntilReady(port)));
  const nodeArgs = all.map((port) => `127.0.0.1:${String(port)}`);
  await run('redis-cli', ['--cluster', 'create', ...nodeArgs, '--cluster-replicas', String(replicas), '--cluster-yes']);
  const alive = (): number[] =>
    all.filter((port) => children.get(port)?.exitCode === null && children.get(port)?.signalCode === null);
  const clusterOk = async (): Promise<true | undefined> => {
    const states = await Promise.all(alive().map((port) => sendRedisCommand(port, 'CLUSTER INFO')));
    return states.every((info) => info.includes('cluster_state:ok')) ? true : undefined;
  };
  await poll('cluster_state:ok', clusterOk);
  const lines = nodeLines(await sendRedisCommand(all[0] ?? 0, 'CLUSTER NODES'));
  const ports = lines.filter((line) => line.flags.includes('master')).map((line) => line.port);
  const replicaPorts = lines.filter((line) => line.flags.includes('slave')).map((line) => line.port);
  await poll('replicas in sync', async () => {
    const infos = await Promise.all(replicaPorts.map((port) => sendRedisCommand(port, 'INFO replication')));
    return infos.every((info) => info.includes('master_link_status:up')) ? true : undefined;
  });
  const someLive = (): number => alive()[0] ?? 0;
  async function kill(port: number): Promise<void> {
    const child = children.get(port);
    if (child?.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  return {
    ports,
    nodes: ports.map((port) => ({ host: '127.0.0.1', port })),
    async masterOf(key: string): Promise<number> {
      const slot = Number((await sendRedisCommand(someLive(), `CLUSTER KEYSLOT ${key}`)).slice(1));
      const serving = nodeLines(await sendRedisCommand(someLive(), 'CLUSTER NODES')).find(
        (line) => line.flags.includes('master') && line.slots.some(([from, to]) => slot >= from && slot <= to),
      );
      if (serving === undefined) throw new Error(`no master serves slot ${String(slot)}`);
      return serving.port;
    },
    kill,
    async promotedFor(port: number): Promise<number> {
      const killedId = lines.find((line) => line.port === port)?.id;
      const replica = lines.find((line) => line.masterId === killedId);
      if (replica === undefined) throw new Error(`no replica of the master on port ${String(port)}`);
      await poll(`the replica on port ${String(replica.port)} promoted`, async () => {
        const views = await Promise.all(alive().map((live) => sendRedisCommand(live, 'CLUSTER NODES')));
        const promoted = views.every((view) =>
          nodeLines(view).some(
            (line) => line.port === replica.port && line.flags.includes('master') && line.slots.length > 0,
          ),
        );
        return promoted ? await clusterOk() : undefined;
      });
      return replica.port;
    },
    async dispose(): Promise<void> {
      await Promise.all([...children.keys()].map(kill));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
