/**
 * What dedup failures look like to the handler and to the host, over the real ACP SDK (client and
 * agent paired in process): a fail-open turn tells the handler dedup was bypassed
 * (`buzz.dedupBypassed`); a fail-closed store failure, at the claim or at the commit, and events
 * held by another turn reach the host as one JSON-RPC error shape whose `data` carries the stable
 * code and the outcome (before, the host saw a bare `-32603 Internal error`).
 */
import { methods } from '@agentclientprotocol/sdk';
import { describe, expect, test } from 'vitest';
import { raceEvent, racePrompt } from './support/race-prompt.js';
import { withAgent } from './support/with-agent.js';
import type { BuzzPromptOutcome, BuzzTurn } from '../../src/acp/index.js';
import { createDeduper } from '../../src/dedup/deduper.js';
import { createMemoryStore } from '../../src/dedup/memory-store.js';
import type { DedupStore } from '../../src/dedup/types.js';
import { CHANNEL_ID } from '../envelope/sample.js';
import { delivery } from '../dedup/fixtures.js';

const eventA = raceEvent('a', 1);

/** A memory store whose `claim` or `commit` fails (the failure the deduper sees). */
function failing(call: 'claim' | 'commit'): DedupStore {
  const inner = createMemoryStore();
  return {
    claim: call === 'claim' ? () => Promise.reject(new Error('connection refused')) : (r) => inner.claim(r),
    commit: call === 'commit' ? () => Promise.reject(new Error('connection refused')) : (r) => inner.commit(r),
    release: (request) => inner.release(request),
  };
}

/** The JSON-RPC error a request rejected with, as the host got it. */
function wireError(error: unknown): unknown {
  const { code, message, data } = error as { code: unknown; message: unknown; data: unknown };
  return { code, message, data };
}

describe('fail-open: the handler is told that dedup was bypassed', () => {
  test('dedupBypassed is the store failure; every event is fresh and the turn runs', async () => {
    const seen: BuzzTurn[] = [];
    const response = await withAgent(
      { deduper: createDeduper({ store: failing('claim'), settleAttempts: 1 }) },
      ({ buzz }) => {
        if (buzz !== undefined) seen.push(buzz);
        return { stopReason: 'end_turn' };
      },
      (host, sessionId) => host.request(methods.agent.session.prompt, racePrompt(sessionId, [eventA])),
    );
    expect(response).toEqual({ stopReason: 'end_turn' });
    const bypassed = seen[0]?.dedupBypassed;
    expect([bypassed?.code, bypassed?.message, (bypassed?.cause as Error | undefined)?.message]).toEqual([
      'dedup_store_unavailable',
      'the dedup store failed to claim',
      'connection refused',
    ]);
    expect(seen[0]?.fresh.map((event) => event.id)).toEqual([eventA.id]);
  });

  test('null when the store answered, and without a deduper', async () => {
    for (const options of [{ deduper: createDeduper() }, {}]) {
      let turn: BuzzTurn | undefined;
      await withAgent(
        options,
        ({ buzz }) => {
          turn = buzz;
          return { stopReason: 'end_turn' };
        },
        (host, sessionId) => host.request(methods.agent.session.prompt, racePrompt(sessionId, [eventA])),
      );
      expect(turn?.dedupBypassed).toBeNull();
    }
  });
});

/** The JSON-RPC error one prompt of A is answered with, under `options`, or `null` for an answer. */
function promptError(
  options: Parameters<typeof withAgent>[0],
  handler: Parameters<typeof withAgent>[1] = () => ({ stopReason: 'end_turn' }),
): Promise<unknown> {
  return withAgent(options, handler, (host, sessionId) =>
    host.request(methods.agent.session.prompt, racePrompt(sessionId, [eventA])).then(() => null, wireError),
  );
}

/** The error a turn ends with, as the host sees it. */
function turnError(details: string, code: string, buzzMeta: BuzzPromptOutcome): unknown {
  return { code: -32603, message: 'Internal error', data: { details, code, buzzMeta } };
}

describe('errors on the wire: -32603 with the stable code and the outcome in data', () => {
  test('fail-closed, the claim fails: dedup_store_unavailable, the handler is not called', async () => {
    const outcomes: BuzzPromptOutcome[] = [];
    let called = false;
    const deduper = createDeduper({ store: failing('claim'), onStoreError: 'fail-closed' });
    const error = await promptError({ deduper, onOutcome: (outcome) => outcomes.push(outcome) }, () => {
      called = true;
      return { stopReason: 'end_turn' };
    });
    expect({ error, outcomes, called }).toEqual({
      error: turnError('the dedup store failed to claim', 'dedup_store_unavailable', { outcome: 'dedup-unavailable' }),
      outcomes: [{ outcome: 'dedup-unavailable' }],
      called: false,
    });
  });

  test('fail-closed, the commit fails after the handler answered: the same error, for the host to retry', async () => {
    const deduper = createDeduper({ store: failing('commit'), onStoreError: 'fail-closed', settleAttempts: 1 });
    expect(await promptError({ deduper })).toEqual(
      turnError('the dedup store failed to commit', 'dedup_store_unavailable', { outcome: 'dedup-unavailable' }),
    );
  });

  test('events held by another turn: dedup_events_held, with how many', async () => {
    const store = createMemoryStore();
    // Another claim holds A and never settles within the wait.
    await createDeduper({ store }).claim(delivery([eventA], [], CHANNEL_ID));
    expect(await promptError({ deduper: createDeduper({ store }), heldWaitMs: 0, dedupNamespace: null })).toEqual(
      turnError(
        'events of this prompt are in flight in another turn that has not settled yet; retry the prompt later',
        'dedup_events_held',
        { outcome: 'held', held: 1 },
      ),
    );
  });

  test('an error the handler throws is the SDK’s as before: no buzz-meta code', async () => {
    const error = await promptError({ deduper: createDeduper() }, () => {
      throw new Error('handler failed');
    });
    expect(error).toEqual({ code: -32603, message: 'Internal error', data: { details: 'handler failed' } });
  });
});
