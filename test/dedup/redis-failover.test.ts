/**
 * A master SIGKILLed mid-run and failed over, on a real Redis Cluster of three masters with one
 * replica each (test/support/redis-cluster.ts, `cluster-node-timeout` 500 ms), through the
 * documented wiring of node-redis `createCluster` and ioredis `Cluster`. A pool of four dedupers
 * (fail-closed) works through deliveries that each arrive twice, with a host that retries every
 * failed prompt; the master serving a turn in flight is killed and its replica promoted while the
 * run goes on. Every event ends handled exactly once, except the window docs/dedup.md states: a
 * write the killed master acknowledged but had not yet sent to its replica (the test allows the
 * events whose claim or commit that master answered in the last {@link WINDOW_MS} before the kill).
 */
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { ioredisClusterDeduper } from '../../examples/redis-ioredis-cluster.js';
import { nodeRedisClusterDeduper } from '../../examples/redis-node-cluster.js';
import { createDeduper } from '../../src/dedup/deduper.js';
import { createRedisStore } from '../../src/dedup/redis-store.js';
import type { Deduper } from '../../src/dedup/types.js';
import type { BuzzDraftContext } from '../../src/context.js';
import { type RedisCluster, startRedisCluster } from '../support/redis-cluster.js';
import { delivery, event, eventId, ids } from './fixtures.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** How long before the kill an acknowledged write may still be missing on the replica (loopback: far less). */
const WINDOW_MS = 50;
const CHANNELS = Array.from({ length: 24 }, (_, n) => `0000f000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`);
const PER_CHANNEL = 12;
const BATCH = 3;
const WORKERS = 4;
/** A turn's work between claim and commit. */
const WORK_MS = 10;
/** How long the host waits before retrying a failed prompt. */
const RETRY_MS = 100;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let cluster: RedisCluster;
beforeAll(async () => {
  cluster = await startRedisCluster({ replicas: 1, nodeTimeoutMs: 500 });
  // Torn down only when set up: a beforeAll that failed (no redis-server) leaves nothing to tear down.
  return async () => {
    await cluster.dispose();
  };
});

interface Delivery {
  readonly channel: string;
  readonly context: BuzzDraftContext;
  due: number;
}

/** What the run saw: handling per event key, store-call times per event, failures. */
interface RunLog {
  readonly handled: Map<string, number>;
  /** When a claim or commit of the event was answered, per event key. */
  readonly acknowledged: Map<string, number[]>;
  /** When a delivery of the channel last succeeded. */
  readonly finished: Map<string, number>;
  claimFailures: number;
  commitFailures: string[];
}

/**
 * One turn as `buzz-meta/acp` runs it, without its held wait: claim (fail-closed: a failed claim
 * is a failed prompt); held events → release and fail; else handle the fresh events and commit.
 * Resolves `true` when the prompt succeeded, `false` when the host must retry it.
 */
async function turn(deduper: Deduper, next: Delivery, log: RunLog): Promise<boolean> {
  const key = (id: string | null): string => `${next.channel}/${id ?? ''}`;
  const ack = (keys: readonly string[]): void => {
    const at = performance.now();
    for (const k of keys) log.acknowledged.set(k, [...(log.acknowledged.get(k) ?? []), at]);
  };
  const claim = await deduper.claim(next.context).catch(() => undefined);
  if (claim === undefined) {
    log.claimFailures++;
    return false;
  }
  const fresh = claim.fresh.map((e) => key(e.id));
  ack(fresh);
  if ((claim.held ?? []).length > 0) {
    await claim.release().catch(() => undefined);
    return false;
  }
  for (const k of fresh) log.handled.set(k, (log.handled.get(k) ?? 0) + 1);
  await sleep(WORK_MS);
  try {
    await claim.commit();
  } catch {
    log.commitFailures.push(...fresh);
    return false;
  }
  ack(fresh);
  return true;
}

/** A pool run: its deduper, its log, and the deliveries it works through. */
interface Pool {
  readonly name: string;
  readonly prefix: string;
  readonly dedupers: readonly Deduper[];
  readonly log: RunLog;
}

/**
 * Every batch of every channel, channels interleaved, then each batch again (as after a host
 * timeout or a replay to another replica): redeliveries of batches handled before the kill come
 * after it.
 */
function deliveries(): Delivery[] {
  const firsts: Delivery[] = [];
  for (let first = 0; first < PER_CHANNEL; first += BATCH) {
    for (const channel of CHANNELS) {
      const events = Array.from({ length: BATCH }, (_, k) => event(first + k));
      firsts.push({ channel, context: delivery(events, [], channel), due: 0 });
    }
  }
  return [...firsts, ...firsts.map((d) => ({ ...d }))];
}

/**
 * Runs every delivery through the pool until each succeeded (a failed prompt is retried after
 * {@link RETRY_MS}); calls `fault` with the channel of a turn just finished once a quarter are done.
 */
async function runPool(pool: Pool, fault: (channel: string) => Promise<void>): Promise<void> {
  const queue = deliveries();
  const total = queue.length;
  let done = 0;
  let faulted: Promise<void> | undefined;
  await Promise.all(
    pool.dedupers.map(async (deduper) => {
      while (done < total) {
        const index = queue.findIndex((d) => d.due <= performance.now());
        const next = index === -1 ? undefined : queue.splice(index, 1)[0];
        if (next === undefined) {
          await sleep(10);
          continue;
        }
        if (await turn(deduper, next, pool.log)) {
          done++;
          pool.log.finished.set(next.channel, performance.now());
        } else queue.push({ ...next, due: performance.now() + RETRY_MS });
        if (faulted === undefined && done >= total / 4) faulted = fault(next.channel);
      }
    }),
  );
  await faulted;
}

const clients = [
  [
    'node-redis createCluster',
    async (c: RedisCluster) => {
      const wired = await nodeRedisClusterDeduper(c.ports.map((port) => `redis://127.0.0.1:${String(port)}`));
      return {
        client: wired.cluster,
        close: () => {
          wired.cluster.destroy();
        },
      };
    },
  ],
  [
    'ioredis Cluster',
    async (c: RedisCluster) => {
      const wired = await ioredisClusterDeduper(c.nodes);
      return {
        client: wired.cluster,
        close: () => {
          wired.cluster.disconnect();
        },
      };
    },
  ],
] as const;

describe('a master killed and failed over', () => {
  test('both clients, fail-closed, the host retrying: every event handled once but for the replication window', async () => {
    const connected = await Promise.all(clients.map(([, connect]) => connect(cluster)));
    const pools: Pool[] = clients.map(([name], n) => {
      const prefix = `failover${String(n)}:`;
      const client = connected[n]?.client;
      if (client === undefined) throw new Error('no client');
      // Commit retries that outlast the failover: 50 ms doubling over 9 attempts is 12.75 s of backoff.
      const dedupers = Array.from({ length: WORKERS }, () =>
        createDeduper({
          store: createRedisStore({ client, prefix }),
          onStoreError: 'fail-closed',
          callTimeoutMs: 1_000,
          settleAttempts: 9,
          leaseMs: 20_000, // longer than the failover: a turn waiting on it keeps its lease
        }),
      );
      const log: RunLog = {
        handled: new Map(),
        acknowledged: new Map(),
        finished: new Map(),
        claimFailures: 0,
        commitFailures: [],
      };
      return { name, prefix, dedupers, log };
    });
    // One kill for both pools: the master of a channel a turn just worked on (the slot of a
    // channel does not depend on the prefix, so it is the same master for both).
    let failover: Promise<{ port: number; at: number; promotedAt: number; channels: Set<string> }> | undefined;
    const fault = (channel: string): Promise<void> => {
      failover ??= (async () => {
        const port = await cluster.masterOf(`{${channel}}`);
        const masters = await Promise.all(CHANNELS.map((c) => cluster.masterOf(`{${c}}`)));
        await cluster.kill(port);
        const at = performance.now();
        await cluster.promotedFor(port);
        const channels = new Set(CHANNELS.filter((_, n) => masters[n] === port));
        return { port, at, promotedAt: performance.now(), channels };
      })();
      return failover.then(() => undefined);
    };
    await Promise.all(pools.map((pool) => runPool(pool, fault)));
    if (failover === undefined) throw new Error('the master was never killed');
    const killed = await failover;

    const all = CHANNELS.flatMap((c) => Array.from({ length: PER_CHANNEL }, (_, n) => `${c}/${eventId(n)}`));
    for (const [n, { name, log, prefix }] of pools.entries()) {
      // None lost: every event handled at least once.
      expect(
        all.filter((k) => (log.handled.get(k) ?? 0) === 0),
        name,
      ).toEqual([]);
      // Twice only in the window: a write the killed master answered just before it died.
      const inWindow = (k: string): boolean =>
        killed.channels.has(k.slice(0, k.indexOf('/'))) &&
        (log.acknowledged.get(k) ?? []).some((time) => time <= killed.at && time > killed.at - WINDOW_MS);
      const doubles = all.filter((k) => (log.handled.get(k) ?? 0) > 1);
      expect(
        doubles.filter((k) => !inWindow(k)),
        name,
      ).toEqual([]);
      expect(
        doubles.filter((k) => log.handled.get(k) !== 2),
        name,
      ).toEqual([]);
      // The commit retries rode out the failover: no commit counted as failed.
      expect(log.commitFailures, name).toEqual([]);
      // The killed master's channels went on after the promotion, on the promoted replica.
      const after = [...killed.channels].filter((c) => (log.finished.get(c) ?? 0) > killed.promotedAt);
      expect(after.length, name).toBeGreaterThan(0);
      // Every handled mark survived the failover: a fresh claim of every event finds it handled.
      const client = connected[n]?.client;
      if (client === undefined) throw new Error('no client');
      const check = createDeduper({ store: createRedisStore({ client, prefix }) });
      for (const channel of CHANNELS) {
        const events = Array.from({ length: PER_CHANNEL }, (_, k) => event(k));
        const claim = await check.claim(delivery(events, [], channel));
        expect(ids(claim.handled), name).toEqual(events.map((e) => e.id));
      }
    }
    // node-redis fails a call to a disconnected node at once: claims failed while the master was down.
    expect(pools[0]?.log.claimFailures).toBeGreaterThan(0);
    expect(killed.channels.size).toBeGreaterThan(0);
    for (const { close } of connected) close();
  });
});
