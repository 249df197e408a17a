/**
 * `buzz-meta/acp` and the kept-session re-prompt after a harness restart: the interrupted turn's
 * events arrive again as `cancelledEvents` with no new event. The handler gets them as `carried`
 * work when nobody holds them, and is not called when they are held or handled elsewhere. Over
 * the real ACP SDK (client and agent apps paired in process) with the real memory deduper.
 */
import { agent, client, methods, PROTOCOL_VERSION, type PromptResponse } from '@agentclientprotocol/sdk';
import { expect, test } from 'vitest';
import { buzzHandlers, type BuzzHandlersOptions, type BuzzPromptContext } from '../../src/acp/index.js';
import type { BuzzContext } from '../../src/context.js';
import { createBuzzReader, createDeduper, readBuzzContext } from '../../src/index.js';
import { ALICE, chat, ENGINEERING } from '../legacy/fixtures.js';
import { contextSection, eventId, prompt, restartSections } from '../legacy/render.js';

const interrupted = chat(ALICE, 'draft the migration plan');
const restartPrompt = prompt(
  contextSection('v5', 'channel', ENGINEERING),
  ...restartSections([interrupted], ENGINEERING),
);

interface Turn {
  readonly fresh: (string | null)[];
  readonly carried: (string | null)[];
  readonly sender: string | null;
}

/** Sends the restart re-prompt once; returns what the handler saw (if called) and the response. */
async function restart(options: Partial<BuzzHandlersOptions<BuzzContext, 'pass'>>) {
  const reader = await createBuzzReader({ backend: 'js' });
  const turns: Turn[] = [];
  const handlers = buzzHandlers({ ...options, reader }, ({ buzz }: BuzzPromptContext<BuzzContext, 'pass'>) => {
    turns.push({
      fresh: buzz?.fresh.map((event) => event.id) ?? [],
      carried: buzz?.carried.map((event) => event.id) ?? [],
      sender: buzz?.keys.sender ?? null,
    });
    return { stopReason: 'end_turn' };
  });
  const app = agent({ name: 'restart-test' })
    .onRequest(methods.agent.initialize, () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }))
    .onRequest(methods.agent.session.new, () => ({ sessionId: 's1' }))
    .onRequest(methods.agent.session.prompt, handlers.prompt)
    .onNotification(methods.agent.session.cancel, handlers.cancel);
  const response: PromptResponse = await client({ name: 'restart-test-host' }).connectWith(app, async (host) => {
    await host.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION });
    const { sessionId } = await host.request(methods.agent.session.new, { cwd: '/', mcpServers: [] });
    return host.request(methods.agent.session.prompt, { sessionId, prompt: restartPrompt });
  });
  return { turns, response };
}

/** The context of the interrupted turn's own prompt, for claiming its events first. */
function originalTurn(): BuzzContext {
  const read = readBuzzContext({ sessionId: 's', prompt: restartPrompt });
  if (!read.ok || read.context.source !== 'prompt-text') throw new Error('the restart prompt does not read');
  return { ...read.context, events: read.context.cancelledEvents, cancelledEvents: [] };
}

test('without a deduper the restored events are carried work', async () => {
  const { turns, response } = await restart({});
  expect(turns).toEqual([{ fresh: [], carried: [eventId(interrupted)], sender: null }]);
  expect(response.stopReason).toBe('end_turn');
});

test('with a deduper and nobody holding them (the interrupted turn released them): carried', async () => {
  const deduper = createDeduper();
  const claim = await deduper.claim(originalTurn());
  await claim.release();
  const { turns } = await restart({ deduper });
  expect(turns).toEqual([{ fresh: [], carried: [eventId(interrupted)], sender: null }]);
});

test('restored events their interrupted turn finished: the handler is not called, all-seen', async () => {
  const deduper = createDeduper();
  const claim = await deduper.claim(originalTurn());
  await claim.commit();
  const { turns, response } = await restart({ deduper });
  expect(turns).toEqual([]);
  expect(response).toEqual({ stopReason: 'end_turn', _meta: { buzzMeta: { outcome: 'all-seen', seen: 1 } } });
});

test('restored events their own turn still holds: not handed over, the prompt fails for a retry', async () => {
  const deduper = createDeduper();
  await deduper.claim(originalTurn());
  const outcomes: unknown[] = [];
  const failed = await restart({ deduper, heldWaitMs: 0, onOutcome: (outcome) => outcomes.push(outcome) }).then(
    () => 'answered',
    () => 'failed',
  );
  expect([failed, outcomes]).toEqual(['failed', [{ outcome: 'held', held: 1 }]]);
});
