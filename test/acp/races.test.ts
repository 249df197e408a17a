/**
 * `buzz-meta/acp` races over the real ACP SDK (client and agent apps paired in process) with the
 * real deduper over one memory store: events held by another turn are never answered as done; a
 * cancelled turn whose claim is still in flight hands its events to the merged turn; a request
 * cancelled before its handler starts commits nothing; a handler answering `cancelled` releases;
 * a hung handler is answered `cancelled` at once. Each ends with every event handled once.
 */
import { agent, client, methods } from '@agentclientprotocol/sdk';
import { describe, expect, test } from 'vitest';
import { gatedStore } from './support/gated-store.js';
import { raceEvent, racePrompt } from './support/race-prompt.js';
import { withAgent } from './support/with-agent.js';
import { buzzHandlers } from '../../src/acp/index.js';
import { createDeduper } from '../../src/dedup/deduper.js';
import { createMemoryStore } from '../../src/dedup/memory-store.js';
import type { DedupStore } from '../../src/dedup/types.js';
import { createBuzzReader } from '../../src/index.js';
import { AGENT, OWNER } from '../support/keys.js';
import { CHANNEL_ID } from '../envelope/sample.js';
import { delivery } from '../dedup/fixtures.js';

const eventA = raceEvent('a', 1);
const eventB = raceEvent('b', 2);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const params = (sessionId: string, events: unknown[], cancelledEvents: unknown[] = []) =>
  racePrompt(sessionId, events, cancelledEvents);

/** Which event ids are handled now, claiming through a fresh deduper over `store`. */
async function handledNow(store: DedupStore, ids: string[]): Promise<string[]> {
  const deduper = createDeduper({ store });
  const context = {
    source: 'meta-draft',
    trust: 'asserted',
    channelId: CHANNEL_ID,
    channelType: 'channel',
    events: ids.map((id) => ({ id, sender: OWNER.pubkey, kind: 9, createdAt: 1 })),
    cancelledEvents: [],
    diagnostics: [],
  } as const;
  const claim = await deduper.claim(context, { namespace: AGENT.pubkey });
  await claim.release();
  return (claim.handled ?? []).map((e) => e.id);
}

describe('buzzHandlers: events held by another turn', () => {
  test('a redelivery while the first worker still works is an error; the host retry after it failed handles it once', async () => {
    const store = createMemoryStore();
    const handled: (string | null)[] = [];
    let failFirst!: () => void;
    const firstMayFail = new Promise<void>((resolve) => (failFirst = resolve));
    let firstStarted!: () => void;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    const outcomes: unknown[] = [];
    const results = await withAgent(
      { deduper: createDeduper({ store }) },
      async () => {
        firstStarted();
        await firstMayFail;
        throw new Error('worker 1 failed');
      },
      (host1, session1) =>
        withAgent(
          { deduper: createDeduper({ store }), heldWaitMs: 100, onOutcome: (o) => outcomes.push(o) },
          ({ buzz }) => {
            handled.push(...(buzz?.fresh.map((e) => e.id) ?? []));
            return { stopReason: 'end_turn' };
          },
          async (host2, session2) => {
            const first = host1.request(methods.agent.session.prompt, params(session1, [eventA])).then(
              () => 'answered',
              () => 'failed',
            );
            await started;
            // The host timed out on worker 1 and redelivers to worker 2 while worker 1 still holds A.
            const redelivery = await host2.request(methods.agent.session.prompt, params(session2, [eventA])).then(
              () => 'answered',
              (error: unknown) => (error as { data?: { details?: string } }).data?.details ?? 'failed',
            );
            failFirst();
            const firstResult = await first;
            // The host retries the failed delivery: A is free again and handled now.
            const retry = await host2.request(methods.agent.session.prompt, params(session2, [eventA]));
            return [firstResult, redelivery, retry.stopReason];
          },
        ),
    );
    expect(results).toEqual([
      'failed',
      'events of this prompt are in flight in another turn that has not settled yet; retry the prompt later',
      'end_turn',
    ]);
    expect(outcomes).toEqual([{ outcome: 'held', held: 1 }]);
    expect(handled).toEqual([eventA.id]);
    expect(await handledNow(store, [eventA.id])).toEqual([eventA.id]);
  });

  test('a redelivery waits for the holder: committed during the wait, it is all-seen', async () => {
    const store = createMemoryStore();
    let finishFirst!: () => void;
    const firstMayFinish = new Promise<void>((resolve) => (finishFirst = resolve));
    let firstStarted!: () => void;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    let calls = 0;
    const order: string[] = [];
    const responses = await withAgent(
      { deduper: createDeduper({ store }) },
      async () => {
        calls++;
        firstStarted();
        await firstMayFinish;
        return { stopReason: 'end_turn' };
      },
      (host1, session1) =>
        withAgent(
          { deduper: createDeduper({ store }), heldWaitMs: 5_000 },
          () => {
            calls++;
            return { stopReason: 'end_turn' };
          },
          async (host2, session2) => {
            const first = host1.request(methods.agent.session.prompt, params(session1, [eventA]));
            void first.then(() => order.push('first'));
            await started;
            const redelivery = host2.request(methods.agent.session.prompt, params(session2, [eventA]));
            void redelivery.then(() => order.push('redelivery'));
            await sleep(60);
            finishFirst();
            return [await first, await redelivery];
          },
        ),
    );
    // The redelivery was answered only after the holder committed.
    expect(order).toEqual(['first', 'redelivery']);
    expect(calls).toBe(1);
    expect(responses).toEqual([
      { stopReason: 'end_turn' },
      { stopReason: 'end_turn', _meta: { buzzMeta: { outcome: 'all-seen', seen: 1 } } },
    ]);
  });

  test('a redelivery waits for the holder: released during the wait, it handles the events itself', async () => {
    const store = createMemoryStore();
    let failFirst!: () => void;
    const firstMayFail = new Promise<void>((resolve) => (failFirst = resolve));
    let firstStarted!: () => void;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    const handled: unknown[] = [];
    const answers = await withAgent(
      { deduper: createDeduper({ store }) },
      async () => {
        firstStarted();
        await firstMayFail;
        throw new Error('worker 1 failed');
      },
      (host1, session1) =>
        withAgent(
          { deduper: createDeduper({ store }), heldWaitMs: 5_000 },
          ({ buzz }) => {
            handled.push({ fresh: buzz?.fresh.map((e) => e.id), seen: buzz?.seen.map((e) => e.id) });
            return { stopReason: 'end_turn' };
          },
          async (host2, session2) => {
            const first = host1.request(methods.agent.session.prompt, params(session1, [eventA])).then(
              () => 'answered',
              () => 'failed',
            );
            await started;
            const redelivery = host2.request(methods.agent.session.prompt, params(session2, [eventB, eventA]));
            await sleep(60);
            failFirst();
            return [await first, (await redelivery).stopReason];
          },
        ),
    );
    expect(answers).toEqual(['failed', 'end_turn']);
    // A came free during the wait: this turn handles it, in delivery order with B.
    expect(handled).toEqual([{ fresh: [eventB.id, eventA.id], seen: [] }]);
    expect(await handledNow(store, [eventA.id, eventB.id])).toEqual([eventA.id, eventB.id]);
  });
});

describe('buzzHandlers: cancel races', () => {
  test('session/cancel while turn 1 is still claiming, then the merged prompt: the cancelled event is carried', async () => {
    const gated = gatedStore();
    const store = gated.store;
    const turns: unknown[] = [];
    const gate = gated.holdNext();
    const responses = await withAgent(
      // No waiting for held events: only the session's own ordering can hand A over.
      { deduper: createDeduper({ store }), heldWaitMs: 0 },
      ({ buzz }) => {
        turns.push({ fresh: buzz?.fresh.map((e) => e.id), carried: buzz?.carried.map((e) => e.id) });
        return { stopReason: 'end_turn' };
      },
      async (host, sessionId) => {
        const first = host.request(methods.agent.session.prompt, params(sessionId, [eventA]));
        await gate.entered;
        await host.notify(methods.agent.session.cancel, { sessionId });
        const merged = host.request(methods.agent.session.prompt, params(sessionId, [eventB], [eventA]));
        await sleep(20);
        gate.open();
        return [(await first).stopReason, (await merged).stopReason];
      },
    );
    expect(responses).toEqual(['cancelled', 'end_turn']);
    expect(turns).toEqual([{ fresh: [eventB.id], carried: [eventA.id] }]);
    expect(await handledNow(store, [eventA.id, eventB.id])).toEqual([eventA.id, eventB.id]);
  });

  test('a request cancelled ($/cancel_request) before its handler starts commits nothing', async () => {
    const store = createMemoryStore();
    let called = 0;
    const [response, retry] = await withAgent(
      { deduper: createDeduper({ store }) },
      () => {
        called++;
        return { stopReason: 'end_turn' };
      },
      async (host, sessionId) => {
        const cancelled = await host
          .request(methods.agent.session.prompt, params(sessionId, [eventA]), {
            cancellationSignal: AbortSignal.abort(),
          })
          .then(
            (r) => r.stopReason,
            (error: unknown) => (error as { code?: number }).code,
          );
        return [cancelled, (await host.request(methods.agent.session.prompt, params(sessionId, [eventA]))).stopReason];
      },
    );
    expect(response).toBe('cancelled');
    // The handler ran only for the retry, which found A free: the cancelled request left nothing behind.
    expect([called, retry]).toEqual([1, 'end_turn']);
    expect(await handledNow(store, [eventA.id])).toEqual([eventA.id]);
  });

  test('a handler that answers cancelled on its own releases its events: the retry handles them', async () => {
    const store = createMemoryStore();
    const fresh: number[] = [];
    const responses = await withAgent(
      { deduper: createDeduper({ store }) },
      ({ buzz }) => {
        fresh.push(buzz?.fresh.length ?? -1);
        return { stopReason: fresh.length === 1 ? 'cancelled' : 'end_turn' };
      },
      async (host, sessionId) => [
        (await host.request(methods.agent.session.prompt, params(sessionId, [eventA]))).stopReason,
        (await host.request(methods.agent.session.prompt, params(sessionId, [eventA]))).stopReason,
      ],
    );
    expect(responses).toEqual(['cancelled', 'end_turn']);
    expect(fresh).toEqual([1, 1]);
  });
});

describe('buzzHandlers: two agents on one store', () => {
  test('two agents mentioned in one message each handle it (keys are namespaced by the pinned key)', async () => {
    const store = createMemoryStore();
    const handledBy: string[] = [];
    const other = await createBuzzReader({ agentPubkey: OWNER.npub, backend: 'js' });
    const answers = await withAgent(
      { deduper: createDeduper({ store }) },
      () => {
        handledBy.push('agent');
        return { stopReason: 'end_turn' };
      },
      async (host, sessionId) => {
        const mine = await host.request(methods.agent.session.prompt, params(sessionId, [eventA]));
        const handlers = buzzHandlers({ reader: other, deduper: createDeduper({ store }) }, () => {
          handledBy.push('other');
          return { stopReason: 'end_turn' };
        });
        const app = agent({ name: 'other' }).onRequest(methods.agent.session.prompt, handlers.prompt);
        const theirs = await client({ name: 'host' }).connectWith(app, (h) =>
          h.request(methods.agent.session.prompt, params('s2', [eventA])),
        );
        return [mine.stopReason, theirs.stopReason];
      },
    );
    expect(answers).toEqual(['end_turn', 'end_turn']);
    expect(handledBy).toEqual(['agent', 'other']);
  });

  test('dedupNamespace: null shares the un-namespaced keys (the layout before namespaces)', async () => {
    const store = createMemoryStore();
    await (await createDeduper({ store }).claim(delivery([eventA], [], CHANNEL_ID))).commit();
    const response = await withAgent(
      { deduper: createDeduper({ store }), dedupNamespace: null },
      () => ({ stopReason: 'end_turn' }),
      (host, sessionId) => host.request(methods.agent.session.prompt, params(sessionId, [eventA])),
    );
    expect(response).toEqual({ stopReason: 'end_turn', _meta: { buzzMeta: { outcome: 'all-seen', seen: 1 } } });
  });
});
