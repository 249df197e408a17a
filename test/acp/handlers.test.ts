/**
 * `buzz-meta/acp` `buzzHandlers` over the real ACP SDK (client and agent apps paired in process:
 * real request parsing and dispatch, no child process): what reaches the handler, what the
 * wrapper answers itself and why, and how each turn's dedup claim is settled.
 */
import { methods, type PromptRequest, type PromptResponse } from '@agentclientprotocol/sdk';
import { describe, expect, test } from 'vitest';
import { withAgent } from './support/with-agent.js';
import {
  buzzHandlers,
  type BuzzHandlersOptions,
  type BuzzPromptContext,
  type BuzzPromptOutcome,
} from '../../src/acp/index.js';
import type { BuzzContext } from '../../src/context.js';
import { createBuzzReader } from '../../src/index.js';
import { AGENT, OWNER } from '../support/keys.js';
import { CHANNEL_ID, jsonCopy, sampleEnvelope } from '../envelope/sample.js';
import { recordingDeduper as setDeduper } from './support/recording-deduper.js';

type Seen = BuzzPromptContext<BuzzContext, 'pass'>;

const endTurn: PromptResponse = { stopReason: 'end_turn' };
const prompt = [{ type: 'text' as const, text: 'hi' }];

/** Params with a JSON copy of `buzz` (what a real transport delivers). */
function params(sessionId: string, buzz?: unknown): PromptRequest {
  return buzz === undefined ? { sessionId, prompt } : { sessionId, prompt, _meta: { buzz: jsonCopy(buzz) } };
}

const draft = {
  channelId: CHANNEL_ID,
  channelType: 'channel',
  events: [{ id: 'a'.repeat(64), sender: OWNER.pubkey, kind: 9, createdAt: 1 }],
};

function outcome(response: PromptResponse): unknown {
  return response._meta?.buzzMeta;
}

describe('buzzHandlers: what reaches the handler', () => {
  test('a verified envelope: context, keys, every event fresh', async () => {
    const calls: Seen[] = [];
    const envelope = sampleEnvelope();
    const response = await withAgent(
      {},
      (request) => {
        calls.push(request);
        return endTurn;
      },
      (host, sessionId) => host.request(methods.agent.session.prompt, params(sessionId, envelope)),
    );
    expect(response).toEqual(endTurn);
    expect(calls).toHaveLength(1);
    const buzz = calls[0]?.buzz;
    expect(buzz?.context.trust).toBe('verified');
    expect(buzz?.keys).toEqual({
      channel: `buzz:channel:${CHANNEL_ID}`,
      sender: `buzz:pubkey:${OWNER.pubkey}`,
      thread: `buzz:thread:${envelope.reply.rootEventId}`,
    });
    expect(buzz?.fresh.map((e) => e.id)).toEqual(envelope.events.map((e) => e.id));
    expect(buzz?.seen).toEqual([]);
    expect(calls[0]?.params.sessionId).toBe('s1');
    expect(calls[0]?.signal.aborted).toBe(false);
  });

  test('keys take the configured prefix', async () => {
    const keys: unknown[] = [];
    await withAgent(
      { prefix: 'team' },
      ({ buzz }) => {
        keys.push(buzz?.keys);
        return endTurn;
      },
      (host, sessionId) => host.request(methods.agent.session.prompt, params(sessionId, draft)),
    );
    expect(keys).toEqual([
      { channel: `team:channel:${CHANNEL_ID}`, sender: `team:pubkey:${OWNER.pubkey}`, thread: null },
    ]);
  });

  test('a delivery without events reaches the handler with a null sender key', async () => {
    const keys: unknown[] = [];
    await withAgent(
      { deduper: setDeduper() },
      ({ buzz }) => {
        keys.push(buzz?.keys.sender, buzz?.fresh.length);
        return endTurn;
      },
      (host, sessionId) => host.request(methods.agent.session.prompt, params(sessionId, { ...draft, events: [] })),
    );
    expect(keys).toEqual([null, 0]);
  });

  test("missing: 'pass' (default): a prompt without _meta.buzz reaches the handler with buzz undefined", async () => {
    const seen: unknown[] = [];
    const response = await withAgent(
      {},
      ({ buzz }) => {
        seen.push(buzz);
        return endTurn;
      },
      (host, sessionId) => host.request(methods.agent.session.prompt, params(sessionId)),
    );
    expect(seen).toEqual([undefined]);
    expect(response).toEqual(endTurn);
  });
});

describe('buzzHandlers: answers the wrapper gives itself', () => {
  const refusedBy = async (options: Partial<BuzzHandlersOptions<BuzzContext, 'pass' | 'refuse'>>, buzz?: unknown) => {
    const outcomes: BuzzPromptOutcome[] = [];
    let called = 0;
    const response = await withAgent(
      { ...options, onOutcome: (o) => outcomes.push(o) },
      () => {
        called++;
        return endTurn;
      },
      (host, sessionId) => host.request(methods.agent.session.prompt, params(sessionId, buzz)),
    );
    expect(called).toBe(0);
    expect(outcomes).toEqual([outcome(response)]);
    return response;
  };

  test("missing: 'refuse': refusal with no_buzz_context", async () => {
    expect(await refusedBy({ missing: 'refuse' })).toEqual({
      stopReason: 'refusal',
      _meta: {
        buzzMeta: {
          outcome: 'refused',
          code: 'no_buzz_context',
          path: '/_meta/buzz',
          reason: 'the request has no _meta.buzz, and its prompt text has no Buzz event block',
        },
      },
    });
  });

  test('a tampered envelope is refused with its code, whatever the missing policy', async () => {
    const tampered = jsonCopy(sampleEnvelope()) as unknown as { events: { content: string }[] };
    const first = tampered.events[0];
    if (first !== undefined) first.content = 'wire the funds';
    const response = await refusedBy({}, tampered);
    expect(response.stopReason).toBe('refusal');
    expect(outcome(response)).toMatchObject({
      outcome: 'refused',
      code: 'payload_hash_mismatch',
      path: '/_meta/buzz/attestation/payloadHash',
    });
  });

  test("minTrust: 'verified' refuses a draft with trust_too_low", async () => {
    const reader = await createBuzzReader({ agentPubkey: AGENT.npub, minTrust: 'verified', backend: 'js' });
    const response = await refusedBy({ reader }, draft);
    expect(outcome(response)).toEqual({
      outcome: 'refused',
      code: 'trust_too_low',
      path: '/_meta/buzz',
      reason: 'this context is asserted, and verified was required',
    });
  });

  test('a redelivery whose events were all handled: end_turn, all-seen, handler not called again', async () => {
    const deduper = setDeduper();
    let called = 0;
    const responses = await withAgent(
      { deduper },
      () => {
        called++;
        return endTurn;
      },
      async (host, sessionId) => [
        await host.request(methods.agent.session.prompt, params(sessionId, sampleEnvelope())),
        await host.request(methods.agent.session.prompt, params(sessionId, sampleEnvelope())),
      ],
    );
    expect(called).toBe(1);
    expect(responses).toEqual([
      endTurn,
      { stopReason: 'end_turn', _meta: { buzzMeta: { outcome: 'all-seen', seen: 2 } } },
    ]);
    expect(deduper.settles).toEqual(['commit:2', 'release:0']);
  });
});

describe('buzzHandlers: settling the claim', () => {
  test('session/cancel aborts the handler, answers cancelled, releases; the retry is handled once', async () => {
    const deduper = setDeduper();
    const fresh: number[] = [];
    const responses = await withAgent(
      { deduper },
      async ({ buzz, signal }) => {
        fresh.push(buzz?.fresh.length ?? -1);
        if (fresh.length === 1) {
          // The first turn waits for its cancel, as a long model call would.
          await new Promise((resolve) => {
            signal.addEventListener('abort', resolve, { once: true });
          });
          throw signal.reason;
        }
        return endTurn;
      },
      async (host, sessionId) => {
        const first = host.request(methods.agent.session.prompt, params(sessionId, sampleEnvelope()));
        await new Promise((resolve) => setTimeout(resolve, 20));
        await host.notify(methods.agent.session.cancel, { sessionId });
        return [await first, await host.request(methods.agent.session.prompt, params(sessionId, sampleEnvelope()))];
      },
    );
    expect(responses).toEqual([{ stopReason: 'cancelled', _meta: { buzzMeta: { outcome: 'cancelled' } } }, endTurn]);
    expect(fresh).toEqual([2, 2]);
    expect(deduper.settles).toEqual(['release:2', 'commit:2']);
  });

  test('a handler that never settles is answered cancelled at once on session/cancel; the claim is released', async () => {
    const deduper = setDeduper();
    let finish!: () => void;
    const response = await withAgent(
      { deduper },
      async () => {
        // Hangs (ignores the abort signal) until the test lets it go, after the answer.
        await new Promise<void>((resolve) => (finish = resolve));
        return { stopReason: 'end_turn', _meta: { mine: 1 } };
      },
      async (host, sessionId) => {
        const first = host.request(methods.agent.session.prompt, params(sessionId, draft));
        await new Promise((resolve) => setTimeout(resolve, 20));
        await host.notify(methods.agent.session.cancel, { sessionId });
        return first;
      },
    );
    expect(response).toEqual({ stopReason: 'cancelled', _meta: { buzzMeta: { outcome: 'cancelled' } } });
    finish();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Its late end_turn commits nothing.
    expect(deduper.settles).toEqual(['release:1']);
  });

  test('a handler that throws: the error reaches the host, the claim is released, the retry is fresh', async () => {
    const deduper = setDeduper();
    let calls = 0;
    const results = await withAgent(
      { deduper },
      () => {
        calls++;
        if (calls === 1) throw new Error('model unavailable');
        return endTurn;
      },
      async (host, sessionId) => {
        const failed = await host.request(methods.agent.session.prompt, params(sessionId, draft)).then(
          () => 'answered',
          () => 'failed',
        );
        return [failed, await host.request(methods.agent.session.prompt, params(sessionId, draft))];
      },
    );
    expect(results).toEqual(['failed', endTurn]);
    expect(deduper.settles).toEqual(['release:1', 'commit:1']);
  });

  test('a cancel for another session leaves the turn alone; onCancel sees every cancel', async () => {
    const deduper = setDeduper();
    const cancels: string[] = [];
    const response = await withAgent(
      { deduper, onCancel: ({ params: p }) => void cancels.push(p.sessionId) },
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 40));
        return endTurn;
      },
      async (host, sessionId) => {
        const first = host.request(methods.agent.session.prompt, params(sessionId, draft));
        await host.notify(methods.agent.session.cancel, { sessionId: 'another' });
        return first;
      },
    );
    expect(response).toEqual(endTurn);
    expect(cancels).toEqual(['another']);
    expect(deduper.settles).toEqual(['commit:1']);
  });
});

describe('buzzHandlers: steer merges', () => {
  const eventA = { id: 'a'.repeat(64), sender: OWNER.pubkey, kind: 9, createdAt: 1 };
  const eventB = { id: 'b'.repeat(64), sender: OWNER.pubkey, kind: 9, createdAt: 2 };
  const delivery = (events: unknown[], cancelledEvents: unknown[]) => ({ ...draft, events, cancelledEvents });

  test('cancelled events nobody finished are carried into the merged turn; handled ones are not', async () => {
    const deduper = setDeduper();
    const turns: unknown[] = [];
    await withAgent(
      { deduper },
      ({ buzz }) => {
        turns.push({
          fresh: buzz?.fresh.map((e) => e.id),
          seen: buzz?.seen.map((e) => e.id),
          carried: buzz?.carried.map((e) => e.id),
        });
        return endTurn;
      },
      async (host, sessionId) => {
        // B was handled earlier; A's turn was cancelled (released), so nobody handled A.
        await host.request(methods.agent.session.prompt, params(sessionId, delivery([eventB], [])));
        await host.request(methods.agent.session.prompt, params(sessionId, delivery([eventB], [eventA])));
        await host.request(methods.agent.session.prompt, params(sessionId, delivery([eventB], [eventA])));
      },
    );
    expect(turns).toEqual([
      { fresh: [eventB.id], seen: [], carried: [] },
      { fresh: [], seen: [eventB.id], carried: [eventA.id] },
    ]);
    expect(deduper.settles).toEqual(['commit:1', 'commit:0', 'release:0']);
  });
});

describe('buzzHandlers: dedup edges', () => {
  const eventA = { id: 'a'.repeat(64), sender: OWNER.pubkey, kind: 9, createdAt: 1 };
  const eventB = { id: 'b'.repeat(64), sender: OWNER.pubkey, kind: 9, createdAt: 2 };
  const delivery = (events: unknown[]) => ({ ...draft, events });

  test('a prompt with fresh and seen events reaches the handler with only the fresh ones to do', async () => {
    const deduper = setDeduper();
    const turns: unknown[] = [];
    await withAgent(
      { deduper },
      ({ buzz }) => {
        turns.push({ fresh: buzz?.fresh.map((e) => e.id), seen: buzz?.seen.map((e) => e.id) });
        return endTurn;
      },
      async (host, sessionId) => {
        await host.request(methods.agent.session.prompt, params(sessionId, delivery([eventA])));
        await host.request(methods.agent.session.prompt, params(sessionId, delivery([eventA, eventB])));
      },
    );
    expect(turns).toEqual([
      { fresh: [eventA.id], seen: [] },
      { fresh: [eventB.id], seen: [eventA.id] },
    ]);
    expect(deduper.settles).toEqual(['commit:1', 'commit:1']);
  });

  test('a deduper whose claims leave carried out: a redelivery is still all-seen', async () => {
    const deduper = setDeduper({ withoutCarried: true });
    let called = 0;
    const responses = await withAgent(
      { deduper },
      ({ buzz }) => {
        called++;
        expect(buzz?.carried).toEqual([]);
        return endTurn;
      },
      async (host, sessionId) => [
        await host.request(methods.agent.session.prompt, params(sessionId, draft)),
        await host.request(methods.agent.session.prompt, params(sessionId, draft)),
      ],
    );
    expect(called).toBe(1);
    expect(responses).toEqual([
      endTurn,
      { stopReason: 'end_turn', _meta: { buzzMeta: { outcome: 'all-seen', seen: 1 } } },
    ]);
  });

  test('session/cancel while the deduper is still claiming: cancelled, handler never called, claim released', async () => {
    let claimStarted!: () => void;
    const claiming = new Promise<void>((resolve) => (claimStarted = resolve));
    let openStore!: () => void;
    const store = new Promise<void>((resolve) => (openStore = resolve));
    const deduper = setDeduper({
      beforeClaim: () => {
        claimStarted();
        return store;
      },
    });
    const outcomes: BuzzPromptOutcome[] = [];
    let called = 0;
    let cancelSeen!: () => void;
    const cancelled = new Promise<void>((resolve) => (cancelSeen = resolve));
    const response = await withAgent(
      {
        deduper,
        onOutcome: (o) => outcomes.push(o),
        onCancel: () => {
          cancelSeen();
        },
      },
      () => {
        called++;
        return endTurn;
      },
      async (host, sessionId) => {
        const answer = host.request(methods.agent.session.prompt, params(sessionId, draft));
        await claiming;
        await host.notify(methods.agent.session.cancel, { sessionId });
        await cancelled;
        openStore();
        return answer;
      },
    );
    expect(response).toEqual({ stopReason: 'cancelled', _meta: { buzzMeta: { outcome: 'cancelled' } } });
    expect(outcomes).toEqual([{ outcome: 'cancelled' }]);
    expect(called).toBe(0);
    expect(deduper.settles).toEqual(['release:1']);
  });
});

describe('buzzHandlers: the request itself ends', () => {
  test('the connection closes mid-turn: the turn is cancelled and its claim released, not committed', async () => {
    const deduper = setDeduper();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let finished!: (aborted: boolean) => void;
    const handlerDone = new Promise<boolean>((resolve) => (finished = resolve));
    await withAgent(
      { deduper },
      async ({ signal }) => {
        started();
        await new Promise((resolve) => {
          signal.addEventListener('abort', resolve, { once: true });
        });
        finished(signal.aborted);
        // Ignores the abort and answers, as a handler that finishes its work anyway would.
        return endTurn;
      },
      async (host, sessionId) => {
        void host.request(methods.agent.session.prompt, params(sessionId, draft)).catch(() => undefined);
        await running;
        // Returning closes the connection with the turn still running.
      },
    );
    expect(await handlerDone).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(deduper.settles).toEqual(['release:1']);
  });

  test('the cancel handler works without an onCancel of the agent', async () => {
    const reader = await createBuzzReader({ backend: 'js' });
    const handlers = buzzHandlers({ reader }, () => endTurn);
    const notification = { params: { sessionId: 'nobody' } } as Parameters<typeof handlers.cancel>[0];
    await expect(handlers.cancel(notification)).resolves.toBeUndefined();
  });
});
