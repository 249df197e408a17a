/**
 * A real `redis-server` for tests: started on a free loopback port with its own data directory,
 * stopped (and restarted, with its data) on demand, and always killed when the test process ends.
 * `.ci/run` installs redis-server when it is missing; elsewhere, without it, vitest.config.ts leaves
 * the Redis suites out with one line (test/support/redis-installed.ts).
 *
 * @packageDocumentation
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REDIS_INSTALL_COMMAND, redisInstalled } from './redis-installed.js';

/** A running (or stopped) redis-server of one test file. */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Stops the server; with `save` (default) it writes its data first, so a restart keeps it. */
  stop(options?: { save?: boolean }): Promise<void>;
  /** Starts it again on the same port and data directory. */
  start(): Promise<void>;
  /** Stops it for good and removes its data directory. */
  dispose(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address === null || typeof address === 'string') reject(new Error('no port'));
        else resolve(address.port);
      });
    });
  });
}

/**
 * Sends one inline command to the server on `port` over a connection of its own and resolves with
 * the raw reply (a status line, or a bulk string's text). `DEBUG SLEEP n` resolves when it ends.
 */
export function sendRedisCommand(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write(`${command}\r\n`));
    let reply = '';
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      reply += text;
      const head = reply.indexOf('\r\n');
      if (head === -1) return;
      if (reply.startsWith('$')) {
        const length = Number(reply.slice(1, head));
        if (Buffer.byteLength(reply.slice(head + 2)) < length + 2) return;
        reply = reply.slice(head + 2, reply.length - 2);
      }
      socket.destroy();
      resolve(reply);
    });
    socket.once('error', reject);
  });
}

/** Resolves once the server answers PING (polling every 20 ms, for up to 20 s: CI machines can be loaded). */
export async function waitUntilReady(port: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const pong = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
      socket.once('error', () => {
        resolve(false);
      });
    });
    if (pong) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`redis-server on port ${String(port)} did not answer within 20 s`);
}

/** Starts a redis-server on a free loopback port. */
export async function startRedisServer(): Promise<RedisServer> {
  if (!redisInstalled()) throw new Error(`redis-server is not installed: ${REDIS_INSTALL_COMMAND}`);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'buzz-meta-redis-'));
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--dbfilename', 'dump.rdb'];
    // A save point, so SIGTERM writes the data (a restart keeps it); no AOF, no protected mode.
    args.push('--save', '3600 1', '--appendonly', 'no', '--daemonize', 'no', '--protected-mode', 'no');
    // Fault tests freeze the server with DEBUG SLEEP (off by default since Redis 7).
    args.push('--enable-debug-command', 'yes');
    const started = spawn('redis-server', args, { stdio: 'ignore' });
    running.add(started);
    started.once('exit', () => running.delete(started));
    child = started;
    await waitUntilReady(port);
  }

  async function stop(options: { save?: boolean } = {}): Promise<void> {
    const current = child;
    child = undefined;
    if (current === undefined) return;
    if (current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => {
      current.once('exit', () => {
        resolve();
      });
    });
    current.kill(options.save === false ? 'SIGKILL' : 'SIGTERM');
    await exited;
  }

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${String(port)}`,
    stop,
    start,
    async dispose(): Promise<void> {
      await stop({ save: false });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
