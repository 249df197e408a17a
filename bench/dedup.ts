/**
 * Dedup benchmarks, run at the end of `npm run bench` (or alone: `BENCH_ONLY=dedup`).
 *
 * Memory store: single-event claim+commit per second through `createDeduper` (goal ≥ 500k/s) and
 * heap bytes per remembered id at 1M ids (goal ≤ 200 B), and per id scraped from 500 kB and 5 kB
 * prompts (same goal: an id must not keep its prompt alive). Redis store: commands per claim of 1 and 50
 * events from `INFO commandstats` (goal exactly 1 EVALSHA; on the cluster with each client), and
 * claim+commit per second with 1, 4 and 8 concurrent workers (in-process async loops, one
 * connection each), one Redis vs a three-master cluster, node-redis vs ioredis; and one Redis with
 * one replica without and with `WAIT 1` after each call. The Redis part starts its own
 * redis-servers on free loopback ports, or prints why it skipped. Nothing is asserted.
 */
import { createHash } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import type { BuzzContext, BuzzDraftContext } from '../src/context.js';
import { createDeduper } from '../src/dedup/deduper.js';
import { createMemoryStore } from '../src/dedup/memory-store.js';
import { createRedisStore } from '../src/dedup/redis-store.js';
import type { DedupStore, Deduper } from '../src/dedup/types.js';
import { readBuzzContext } from '../src/read/read.js';
import { chat, ENGINEERING } from '../test/legacy/fixtures.js';
import { eventSection, prompt } from '../test/legacy/render.js';
import { redisInstalled } from '../test/support/redis-installed.js';
import { startRedisServer } from '../test/support/redis-server.js';

const CHANNEL = '5f0c3e59-8a5d-4c4f-9d2c-0a1b2c3d4e5f';
const SENDER = '7ff0923d96f65f99e8c3b31bf25f3ba6c857acee433e7860c19b0e317b77757c';

const idBytes = Buffer.alloc(32, 0xab);

/** The id of event `n`: 64 hex, a flat string as JSON.parse makes it (not a rope as `padStart` would). */
function idOf(n: number): string {
  idBytes.writeUIntBE(n, 26, 6);
  return idBytes.toString('hex');
}

/** A delivery of events numbered from `first`, each id distinct (64 hex). */
function deliveryOf(first: number, count = 1): BuzzDraftContext {
  const events = Array.from({ length: count }, (_, k) => ({
    id: idOf(first + k),
    sender: SENDER,
    kind: 9,
    createdAt: 1_700_000_000,
  }));
  return {
    source: 'meta-draft',
    trust: 'asserted',
    channelId: CHANNEL,
    channelType: 'channel',
    events,
    cancelledEvents: [],
    diagnostics: [],
  };
}

function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Single-event deliveries, built before timing; more than the store remembers, so each claim is fresh. */
const POOL_SIZE = 250_000;
let pool: BuzzDraftContext[] = [];

/** Claim+commit of fresh single-event deliveries for about `ms` of CPU; returns ops per CPU second and per wall second. */
async function claimCommitRate(
  deduper: Deduper,
  start: number,
  ms: number,
): Promise<{ cpu: number; wall: number; next: number }> {
  let n = start;
  const cpu0 = process.cpuUsage();
  const wall0 = process.hrtime.bigint();
  let cpuUs = 0;
  while (cpuUs < ms * 1000) {
    for (let k = 0; k < 1024; k++) {
      const context = pool[n++ % POOL_SIZE];
      if (context === undefined) throw new Error('no delivery pool');
      const claim = await deduper.claim(context);
      await claim.commit();
    }
    const used = process.cpuUsage(cpu0);
    cpuUs = used.user + used.system;
  }
  const wallNs = Number(process.hrtime.bigint() - wall0);
  return { cpu: ((n - start) * 1e6) / cpuUs, wall: ((n - start) * 1e9) / wallNs, next: n };
}

async function memoryFigures(): Promise<void> {
  console.log('dedup, memory store (createDeduper over createMemoryStore, default 100k entries):');
  // Single-event claim+commit, distinct events each time (the fresh path), steady state with eviction.
  pool = Array.from({ length: POOL_SIZE }, (_, n) => deliveryOf(n));
  const deduper = createDeduper({ store: createMemoryStore() });
  let next = 0;
  ({ next } = await claimCommitRate(deduper, next, 300)); // warm-up
  const cpuRates: number[] = [];
  const wallRates: number[] = [];
  for (let round = 0; round < 7; round++) {
    const r = await claimCommitRate(deduper, next, 250);
    cpuRates.push(r.cpu);
    wallRates.push(r.wall);
    next = r.next;
  }
  const rate = median(cpuRates);
  console.log(
    `  claim+commit, 1 event: ${fmt(rate)}/s of CPU time (${fmt(1e6 / rate, 2)} µs each; wall clock ${fmt(median(wallRates))}/s; ` +
      `median of 7 × 250 ms CPU) — goal ≥ 500,000/s: ${rate >= 500_000 ? 'PASS' : 'FAIL'}`,
  );
  pool = [];

  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) {
    console.log('  bytes per remembered id: SKIP (run with node --expose-gc, as npm run bench does)');
    return;
  }
  const count = 1_000_000;
  gc();
  const before = process.memoryUsage().heapUsed;
  const store = createMemoryStore({ maxEntries: count });
  const big = createDeduper({ store });
  for (let n = 0; n < count; n++) {
    const claim = await big.claim(deliveryOf(10_000_000 + n));
    await claim.commit();
  }
  gc();
  const after = process.memoryUsage().heapUsed;
  const perId = (after - before) / store.size;
  console.log(
    `  bytes per remembered id at ${fmt(store.size)} ids: ${fmt(perId, 1)} B (heapUsed after gc) — goal ≤ 200 B: ${perId <= 200 ? 'PASS' : 'FAIL'}`,
  );
  await scrapedIdsFigure(gc, 2_000, 500_000, perId);
  await scrapedIdsFigure(gc, 20_000, 5_000, perId);
}

/** A one-event V4 prompt of about `chars` characters, read; its id hashed here (node:crypto, faster than the renderer's). */
function scrapedContext(n: number, filler: string): BuzzContext {
  const event = chat(SENDER, `${filler} ${String(n)}`);
  const id = createHash('sha256')
    .update(JSON.stringify([0, event.pubkey, event.created_at, event.kind, event.tags, event.content]))
    .digest('hex');
  const read = readBuzzContext({ sessionId: 's', prompt: prompt(eventSection('v4', [{ ...event, id }], ENGINEERING)) });
  if (!read.ok || read.context.source !== 'prompt-text') throw new Error(`scraped bench prompt does not read`);
  return read.context;
}

/**
 * Heap bytes per id that a fresh store holds after `count` claim+commits of the deliveries
 * `delivery(n)` makes and drops: the heap with the store less the heap once the store is dropped
 * too (whatever an id keeps alive goes with it). Not the heap's growth over the run: that counts
 * the code V8 compiles on the way (the reader's, optimized while a 500 kB run lasts) as the ids'.
 */
async function heapPerId(gc: () => void, count: number, delivery: (n: number) => BuzzContext): Promise<number> {
  const held = await heapWithStore(gc, count, delivery);
  settleHeap(gc);
  return (held - process.memoryUsage().heapUsed) / count;
}

/** Collections enough that V8's dropping of unused bytecode, spread over several, lands before a reading, not between two. */
function settleHeap(gc: () => void): void {
  for (let k = 0; k < 8; k++) gc();
}

/** The heap after gc with a fresh store holding `count` ids; the store is unreachable once this returns. */
async function heapWithStore(gc: () => void, count: number, delivery: (n: number) => BuzzContext): Promise<number> {
  const store = createMemoryStore();
  const deduper = createDeduper({ store });
  for (let n = 0; n < count; n++) await (await deduper.claim(delivery(n))).commit();
  if (store.size !== count) throw new Error('the store forgot ids');
  settleHeap(gc);
  return process.memoryUsage().heapUsed;
}

/**
 * What a scraped prompt adds to a remembered id: the same number of ids from scraped prompts of
 * `chars` characters and from flat deliveries, side by side. At a few thousand ids the store's own
 * cost per id is high (its tables are young); the goal is judged on the 1M-id figure plus the excess.
 */
async function scrapedIdsFigure(gc: () => void, count: number, chars: number, perIdAt1M: number): Promise<void> {
  const filler = 'x'.repeat(chars);
  // Warm: the code the reader compiles on the way is heap too, and would be counted as the ids'.
  for (let n = 0; n < 500; n++) scrapedContext(-2 - n, filler);
  const flat = await heapPerId(gc, count, (n) => deliveryOf(20_000_000 + n));
  const scraped = await heapPerId(gc, count, (n) => scrapedContext(n, filler));
  const excess = scraped - flat;
  console.log(
    `  bytes per id at ${fmt(count)} ids scraped from ${fmt(chars / 1000)} kB prompts: ${fmt(scraped, 1)} B vs ${fmt(flat, 1)} B ` +
      `for flat ids, ${excess >= 0 ? '+' : ''}${fmt(excess, 1)} B; at 1M ids ${fmt(perIdAt1M + excess, 1)} B — goal ≤ 200 B: ${perIdAt1M + excess <= 200 ? 'PASS' : 'FAIL'}`,
  );
}

async function redisFigures(): Promise<void> {
  if (!redisInstalled()) {
    console.log('dedup, Redis store: SKIP (redis-server is not installed: apt-get install -y redis-server)');
    return;
  }
  const server = await startRedisServer();
  const clients: { destroy(): void }[] = [];
  const connect = async () => {
    const client = createClient({ url: server.url, disableOfflineQueue: true });
    await client.connect();
    clients.push(client);
    return client;
  };
  try {
    const admin = await connect();
    const version = /redis_version:(\S+)/.exec(await admin.info('server'))?.[1] ?? '?';
    console.log(`dedup, Redis store (redis-server ${version} on loopback, node-redis client):`);
    const deduper = createDeduper({ store: createRedisStore({ client: admin }) });
    await (await deduper.claim(deliveryOf(900_000_000))).commit(); // loads the scripts
    for (const size of [1, 50]) {
      const claims = 100;
      await admin.configResetStat();
      for (let k = 0; k < claims; k++) await deduper.claim(deliveryOf(100_000_000 * size + k * size, size));
      const stats = await admin.info('commandstats');
      const calls = (name: string): number => Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
      const clientCommands = calls('evalsha') + calls('eval');
      console.log(
        `  claim of ${String(size)} event(s): ${fmt(clientCommands / claims, 2)} command(s) per claim ` +
          `(${fmt(calls('evalsha'))} EVALSHA for ${String(claims)} claims; inside the script: ${fmt(calls('set') / claims, 0)} SET each) — goal exactly 1: ${clientCommands === claims ? 'PASS' : 'FAIL'}`,
      );
    }
    await throughputFigures(server.url);
    await replicaAckFigures();
  } finally {
    for (const client of clients) client.destroy();
    await server.dispose();
  }
}

/** A deduper factory per client and topology: each worker gets a connection (a cluster client) of its own. */
type Connect = () => Promise<{ deduper: Deduper; close: () => void }>;

/** Claim+commit of fresh single-event deliveries in `channels` for `ms`, by `workers` concurrent loops. */
async function rate(connect: Connect, workers: number, ms: number, base: number): Promise<number> {
  const opened = await Promise.all(Array.from({ length: workers }, () => connect()));
  // Warm-up: every worker loads the script on every node it talks to.
  await Promise.all(opened.map(async ({ deduper }, w) => (await deduper.claim(deliveryOf(base - 1 - w))).commit()));
  let total = 0;
  const began = Date.now();
  await Promise.all(
    opened.map(async ({ deduper }, w) => {
      let n = base + w * 10_000_000;
      while (Date.now() - began < ms) {
        // Channels spread over slots (and masters, on a cluster).
        const context = { ...deliveryOf(n), channelId: CHANNELS[n % CHANNELS.length] ?? CHANNEL };
        n++;
        const claim = await deduper.claim(context);
        await claim.commit();
        total += 1;
      }
    }),
  );
  const elapsed = Date.now() - began;
  for (const { close } of opened) close();
  return (total * 1000) / elapsed;
}

const CHANNELS = Array.from({ length: 64 }, (_, n) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`);

/**
 * Claim+commit per second at 1, 4 and 8 workers, one Redis vs a three-master Redis Cluster on
 * loopback, node-redis vs ioredis, in one run; and EVALSHA per claim on the cluster (summed over
 * its masters).
 */
async function throughputFigures(url: string): Promise<void> {
  const { startRedisCluster } = await import('../test/support/redis-cluster.js');
  const { sendRedisCommand } = await import('../test/support/redis-server.js');
  const { createCluster } = await import('redis');
  const { Cluster, Redis } = await import('ioredis');
  const cluster = await startRedisCluster();
  const port = Number(new URL(url).port);
  const store = (client: Parameters<typeof createRedisStore>[0]['client']) =>
    createDeduper({ store: createRedisStore({ client }), onStoreError: 'fail-closed' });
  const topologies: { name: string; clients: { name: string; connect: Connect }[] }[] = [
    {
      name: 'one Redis',
      clients: [
        {
          name: 'node-redis',
          connect: async () => {
            const client = await createClient({ url, disableOfflineQueue: true }).connect();
            return {
              deduper: store(client),
              close: () => {
                client.destroy();
              },
            };
          },
        },
        {
          name: 'ioredis',
          connect: async () => {
            const client = new Redis(port, '127.0.0.1', { enableOfflineQueue: false, lazyConnect: true });
            await client.connect();
            return {
              deduper: store(client),
              close: () => {
                client.disconnect();
              },
            };
          },
        },
      ],
    },
    {
      name: 'Redis Cluster, 3 masters',
      clients: [
        {
          name: 'node-redis',
          connect: async () => {
            const client = createCluster({
              rootNodes: cluster.ports.map((p) => ({ url: `redis://127.0.0.1:${String(p)}` })),
              defaults: { disableOfflineQueue: true },
            });
            await client.connect();
            return {
              deduper: store(client),
              close: () => {
                client.destroy();
              },
            };
          },
        },
        {
          name: 'ioredis',
          connect: async () => {
            const client = new Cluster([...cluster.nodes], { enableOfflineQueue: false });
            await new Promise((resolve) => client.once('ready', resolve));
            return {
              deduper: store(client),
              close: () => {
                client.disconnect();
              },
            };
          },
        },
      ],
    },
  ];
  try {
    console.log('  claim+commit per second, 1 event, fresh each time, 64 channels (1 s per row):');
    console.log('    topology                  client       1 worker    4 workers    8 workers');
    let base = 2_000_000_000;
    for (const topology of topologies) {
      for (const client of topology.clients) {
        const rates: number[] = [];
        for (const workers of [1, 4, 8]) {
          rates.push(await rate(client.connect, workers, 1_000, (base += 100_000_000)));
        }
        console.log(
          `    ${topology.name.padEnd(25)} ${client.name.padEnd(10)} ${rates.map((r) => fmt(r).padStart(12)).join(' ')}`,
        );
      }
    }
    // Round trips per claim on the cluster: EVALSHA summed over the masters, for each client.
    for (const counting of topologies[1]?.clients ?? []) {
      const { deduper, close } = await counting.connect();
      // Loads the script on every master first, so each claim below is one EVALSHA.
      for (const channelId of CHANNELS) await deduper.claim({ ...deliveryOf(3_800_000_000), channelId });
      for (const p of cluster.ports) await sendRedisCommand(p, 'CONFIG RESETSTAT');
      const claims = 100;
      for (let k = 0; k < claims; k++) {
        await deduper.claim({ ...deliveryOf(3_900_000_000 + k), channelId: CHANNELS[k % CHANNELS.length] ?? CHANNEL });
      }
      let evalsha = 0;
      for (const p of cluster.ports) {
        const stats = await sendRedisCommand(p, 'INFO commandstats');
        evalsha += Number(/^cmdstat_evalsha:calls=(\d+)/m.exec(stats)?.[1] ?? 0);
      }
      close();
      console.log(
        `  cluster (${counting.name}), claim of 1 event over 64 channels: ${fmt(evalsha / claims, 2)} EVALSHA per claim (${fmt(evalsha)} for ${String(claims)} claims) — goal exactly 1: ${evalsha === claims ? 'PASS' : 'FAIL'}`,
      );
    }
  } finally {
    await cluster.dispose();
  }
}

/**
 * A store that waits for one replica to acknowledge each call's writes (`WAIT 1 <timeoutMs>`, a
 * second round trip on the same connection) and fails the call when none did in time.
 */
function withReplicaAck(store: DedupStore, client: RedisClientType, timeoutMs: number): DedupStore {
  const acknowledged = async (): Promise<void> => {
    const replicas = Number(await client.sendCommand(['WAIT', '1', String(timeoutMs)]));
    if (replicas !== 1) throw new Error('no replica acknowledged the write in time');
  };
  return {
    claim: async (request) => {
      const answers = await store.claim(request);
      await acknowledged();
      return answers;
    },
    commit: async (request) => {
      await store.commit(request);
      await acknowledged();
    },
    release: async (request) => {
      await store.release(request);
      await acknowledged();
    },
  };
}

/**
 * Claim+commit per second on one Redis with one replica, without and with `WAIT 1` after each
 * call (what replica acknowledgement costs), 1/4/8 workers, node-redis.
 */
async function replicaAckFigures(): Promise<void> {
  const { sendRedisCommand } = await import('../test/support/redis-server.js');
  const primary = await startRedisServer();
  const replica = await startRedisServer();
  const opened: { destroy(): void }[] = [];
  try {
    await sendRedisCommand(primary.port, 'CONFIG SET repl-diskless-sync-delay 0');
    await sendRedisCommand(replica.port, `REPLICAOF 127.0.0.1 ${String(primary.port)}`);
    while (!(await sendRedisCommand(replica.port, 'INFO replication')).includes('master_link_status:up')) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const connect =
      (ack: boolean): Connect =>
      async () => {
        const client: RedisClientType = createClient({ url: primary.url, disableOfflineQueue: true });
        await client.connect();
        opened.push(client);
        const store = createRedisStore({ client });
        return {
          deduper: createDeduper({
            store: ack ? withReplicaAck(store, client, 100) : store,
            onStoreError: 'fail-closed',
          }),
          close: () => undefined,
        };
      };
    console.log('  one Redis with one replica (node-redis), claim+commit per second (1 s per row):');
    console.log('    writes acknowledged by                1 worker    4 workers    8 workers');
    let base = 3_000_000_000;
    for (const [name, ack] of [
      ['the primary only', false],
      ['the replica too (WAIT 1 100 per call)', true],
    ] as const) {
      const rates: number[] = [];
      for (const workers of [1, 4, 8]) rates.push(await rate(connect(ack), workers, 1_000, (base += 100_000_000)));
      console.log(`    ${name.padEnd(37)} ${rates.map((r) => fmt(r).padStart(12)).join(' ')}`);
    }
  } finally {
    for (const client of opened) client.destroy();
    await replica.dispose();
    await primary.dispose();
  }
}

/** Runs and prints the dedup figures (`memory: false`: the Redis ones only). */
export async function runDedupBench(
  options: { memory: boolean; redis: boolean } = { memory: true, redis: true },
): Promise<void> {
  console.log('');
  if (options.memory) await memoryFigures();
  if (options.redis) await redisFigures();
}
