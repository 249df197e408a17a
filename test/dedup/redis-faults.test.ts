/**
 * Faults with real processes on one real redis-server, through the documented node-redis wiring
 * (examples/redis-node-standalone.ts): a frozen server (`DEBUG SLEEP`) fails claims within the
 * deadline and the same client recovers; a claim that timed out and lands late leaves no lease;
 * a worker process SIGKILLed mid-turn while the host keeps retrying the prompt over ACP: the
 * retries are answered `dedup_events_held` until the dead worker's lease lapses, then the events
 * are handled exactly once.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { agent, client, methods, type PromptRequest } from '@agentclientprotocol/sdk';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { nodeRedisDeduper } from '../../examples/redis-node-standalone.js';
import { buzzHandlers } from '../../src/acp/index.js';
import { createDeduper } from '../../src/dedup/deduper.js';
import { createRedisStore } from '../../src/dedup/redis-store.js';
import { createBuzzReader } from '../../src/index.js';
import { type RedisServer, sendRedisCommand, startRedisServer } from '../support/redis-server.js';
import { CHANNEL, delivery, event, eventId, ids } from './fixtures.js';
import type { WorkerConfig } from './pool/worker.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const WORKER = fileURLToPath(new URL('./pool/worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let server: RedisServer;
let wired: Awaited<ReturnType<typeof nodeRedisDeduper>>;
beforeAll(async () => {
  server = await startRedisServer();
  wired = await nodeRedisDeduper(server.url, 'fail-closed');
  // Torn down only when set up: a beforeAll that failed (no redis-server) leaves nothing to tear down.
  return async () => {
    wired.client.destroy();
    await server.dispose();
  };
});

describe('one redis-server, faults', () => {
  test('frozen: the documented wiring fails a claim within callTimeoutMs, then the same client recovers', async () => {
    const asleep = sendRedisCommand(server.port, 'DEBUG SLEEP 1.5');
    await sleep(50);
    const started = performance.now();
    await expect(wired.deduper.claim(delivery([event(1)]))).rejects.toMatchObject({ code: 'dedup_store_unavailable' });
    expect(performance.now() - started).toBeLessThan(1_400);
    await asleep;
    expect(ids((await wired.deduper.claim(delivery([event(2)]))).fresh)).toEqual([eventId(2)]);
  });

  test('a claim that timed out while the server was frozen lands late and is released: no lease is left', async () => {
    const prefix = 'late:';
    const deduper = createDeduper({
      store: createRedisStore({ client: wired.client, prefix }),
      onStoreError: 'fail-closed',
      callTimeoutMs: 200,
    });
    const asleep = sendRedisCommand(server.port, 'DEBUG SLEEP 1');
    await sleep(50);
    await expect(deduper.claim(delivery([event(1)]))).rejects.toMatchObject({ code: 'dedup_store_unavailable' });
    await asleep;
    // The server ran the claim when it woke; the deduper's clean-up release follows it.
    await sleep(300);
    expect(await wired.client.get(`${prefix}{${CHANNEL}}:${eventId(1)}`)).toBeNull();
  });
});

/** Params of a draft prompt carrying events `ns` of CHANNEL (see fixtures `event(n)`). */
function prompt(sessionId: string, ns: number[]): PromptRequest {
  const events = ns.map((n) => event(n));
  return {
    sessionId,
    prompt: [{ type: 'text', text: 'hi' }],
    _meta: { buzz: { channelId: CHANNEL, channelType: 'channel', events } },
  };
}

describe('a worker SIGKILLed mid-turn, the host retrying over ACP', () => {
  test('retries get dedup_events_held until the lease lapses; then the events are handled exactly once', async () => {
    const leaseMs = 2_000;
    const prefix = 'killed-acp:';
    const config: WorkerConfig = {
      url: server.url,
      prefix,
      leaseMs,
      deliveries: [{ channel: CHANNEL, events: [1, 2, 3], cancelled: [] }],
      cancelEvery: 1_000,
      hang: true,
    };
    const worker = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(config)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    await new Promise<void>((resolve) => {
      worker.stdout.setEncoding('utf8').on('data', (text: string) => {
        if (text.includes('"claimed"')) resolve();
      });
    });
    worker.kill('SIGKILL');
    await exited;
    const killedAt = performance.now();

    // The surviving worker: the ACP wrapper over the same Redis keys (the hung worker used no namespace).
    const reader = await createBuzzReader({ backend: 'js' });
    const handled: string[] = [];
    const handlers = buzzHandlers(
      {
        reader,
        deduper: createDeduper({ store: createRedisStore({ client: wired.client, prefix }), leaseMs }),
        heldWaitMs: 100,
      },
      ({ buzz }) => {
        handled.push(...(buzz?.fresh.map((e) => e.id ?? '') ?? []));
        return { stopReason: 'end_turn' };
      },
    );
    const app = agent({ name: 'survivor' })
      .onRequest(methods.agent.session.new, () => ({ sessionId: 's1' }))
      .onRequest(methods.agent.session.prompt, handlers.prompt);
    // The host: retries a failed prompt after 200 ms, as Buzz requeues a failed batch (with back-off).
    const attempts = await client({ name: 'host' }).connectWith(app, async (host) => {
      const answers: string[] = [];
      for (let attempt = 0; attempt < 40; attempt++) {
        const answer = await host.request(methods.agent.session.prompt, prompt('s1', [1, 2, 3])).then(
          (response) => response.stopReason,
          (error: unknown) => (error as { data?: { details?: string } }).data?.details ?? 'error',
        );
        answers.push(answer);
        if (answer === 'end_turn') break;
        await sleep(200);
      }
      return answers;
    });
    expect(attempts.length).toBeGreaterThan(1);
    expect(attempts.at(-1)).toBe('end_turn');
    expect(new Set(attempts.slice(0, -1))).toEqual(
      new Set(['events of this prompt are in flight in another turn that has not settled yet; retry the prompt later']),
    );
    // Handled once, and only after the dead worker's lease ran out.
    expect(handled).toEqual([eventId(1), eventId(2), eventId(3)]);
    expect(performance.now() - killedAt).toBeGreaterThan(leaseMs / 2);
    const after = await createDeduper({ store: createRedisStore({ client: wired.client, prefix }) }).claim(
      delivery([event(1), event(2), event(3)]),
    );
    expect(ids(after.handled)).toEqual([eventId(1), eventId(2), eventId(3)]);
  });
});
