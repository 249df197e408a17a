/**
 * A pool of agent processes sharing one real Redis: overlapping deliveries (every event reaches
 * every worker, some twice, some in Steer merges after a cancel) are each committed exactly once
 * and none is lost; a worker killed mid-turn leaves its events claimable after `leaseMs`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { createDeduper } from '../../src/dedup/deduper.js';
import { createRedisStore } from '../../src/dedup/redis-store.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';
import { CHANNEL, OTHER_CHANNEL, delivery, event, eventId, ids } from './fixtures.js';
import type { PoolDelivery, WorkerConfig } from './pool/worker.js';

// Process start-up and real leases: generous on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const WORKER = fileURLToPath(new URL('./pool/worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const THIRD_CHANNEL = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const CHANNELS = [CHANNEL, OTHER_CHANNEL, THIRD_CHANNEL];
const PER_CHANNEL = 100;

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
  // Torn down only when set up: a beforeAll that failed (no redis-server) leaves nothing to tear down.
  return async () => {
    await server.dispose();
  };
});

/** A deterministic PRNG (mulberry32), so every run sees the same interleaving inputs. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every event of every channel in batches of 1–5 in a shuffled order, a fifth of them redelivered. */
function deliveriesFor(seed: number): PoolDelivery[] {
  const next = random(seed);
  const batches: PoolDelivery[] = [];
  for (const channel of CHANNELS) {
    const order = Array.from({ length: PER_CHANNEL }, (_, n) => n).sort(() => next() - 0.5);
    for (let i = 0; i < order.length;) {
      const size = 1 + Math.floor(next() * 5);
      batches.push({ channel, events: order.slice(i, i + size), cancelled: [] });
      i += size;
    }
  }
  batches.sort(() => next() - 0.5);
  const redelivered = batches.filter(() => next() < 0.2);
  return [...batches, ...redelivered];
}

interface WorkerRun {
  readonly lines: Record<string, unknown>[];
  readonly exit: Promise<number | null>;
  kill(): void;
  /** Resolves with the first line that has `key`. */
  line(key: string): Promise<Record<string, unknown>>;
}

function runWorker(config: WorkerConfig): WorkerRun {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(config)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  const waiting: { key: string; resolve: (line: Record<string, unknown>) => void }[] = [];
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let end = buffer.indexOf('\n');
    while (end !== -1) {
      const line = JSON.parse(buffer.slice(0, end)) as Record<string, unknown>;
      buffer = buffer.slice(end + 1);
      lines.push(line);
      for (const w of waiting.filter((x) => x.key in line)) w.resolve(line);
      end = buffer.indexOf('\n');
    }
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      if (code !== 0 && code !== null) process.stderr.write(`worker stderr:\n${stderr}\n`);
      resolve(code);
    });
  });
  return {
    lines,
    exit,
    kill: () => child.kill('SIGKILL'),
    line: (key) =>
      new Promise((resolve) => {
        const found = lines.find((l) => key in l);
        if (found === undefined) waiting.push({ key, resolve });
        else resolve(found);
      }),
  };
}

describe('a pool of worker processes over one Redis', () => {
  test('three workers, overlapping deliveries, redeliveries and steer merges: every event committed exactly once', async () => {
    const workers = [11, 22, 33].map((seed) =>
      runWorker({
        url: server.url,
        prefix: 'pool:',
        leaseMs: 30_000,
        deliveries: deliveriesFor(seed),
        cancelEvery: 7,
        hang: false,
      }),
    );
    expect(await Promise.all(workers.map((w) => w.exit))).toEqual([0, 0, 0]);
    const committed = workers.flatMap((w) => w.lines.flatMap((l) => (l.committed ?? []) as string[]));
    const counts = new Map<string, number>();
    for (const key of committed) counts.set(key, (counts.get(key) ?? 0) + 1);
    const expected = CHANNELS.flatMap((c) => Array.from({ length: PER_CHANNEL }, (_, n) => `${c}/${eventId(n)}`));
    expect([...counts.keys()].sort()).toEqual(expected.sort());
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
    // The runs really overlapped and merged: every worker committed something, and turns were cancelled.
    for (const w of workers) expect(w.lines.filter((l) => 'committed' in l).length).toBeGreaterThan(5);
    const carried = workers.flatMap((w) => w.lines.map((l) => (l.carried ?? 0) as number));
    expect(carried.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(workers.every((w) => w.lines.at(-1)?.done === true)).toBe(true);
  });

  test('a worker killed mid-turn leaves its events claimable after leaseMs', async () => {
    // Long enough that a loaded machine still sees the lease held right after the kill.
    const leaseMs = 3_000;
    const hung = runWorker({
      url: server.url,
      prefix: 'killed:',
      leaseMs,
      deliveries: [{ channel: CHANNEL, events: [1, 2, 3], cancelled: [] }],
      cancelEvery: 1_000,
      hang: true,
    });
    const claimed = await hung.line('claimed');
    expect(claimed.claimed).toEqual([1, 2, 3].map((n) => `${CHANNEL}/${eventId(n)}`));
    hung.kill();
    await hung.exit;
    const client = createClient({ url: server.url, disableOfflineQueue: true });
    await client.connect();
    try {
      const survivor = createDeduper({ store: createRedisStore({ client, prefix: 'killed:' }), leaseMs });
      const retry = delivery([event(1), event(2), event(3)]);
      expect(ids((await survivor.claim(retry)).seen)).toEqual([eventId(1), eventId(2), eventId(3)]);
      // The dead worker's leases run out in Redis (no one settles them): then the events are fresh.
      const key = `killed:{${CHANNEL}}:${eventId(1)}`;
      const ttl = await client.pTTL(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(leaseMs);
      await new Promise((resolve) => setTimeout(resolve, ttl + 20));
      const after = await survivor.claim(retry);
      expect(ids(after.fresh)).toEqual([eventId(1), eventId(2), eventId(3)]);
      await after.commit();
    } finally {
      client.destroy();
    }
  });
});
