/**
 * The races of `buzz-meta/acp` over stdio: a real agent child process (test/acp/fixtures/race-agent.ts,
 * `buzzHandlers` over the real deduper) served with the SDK's newline-delimited JSON stream, and
 * the real SDK client as the host. A cancel while turn 1's claim is in flight, then the merged
 * prompt: the cancelled event is carried; a request cancelled (`$/cancel_request`) before its
 * handler starts commits nothing; a hung handler is answered `cancelled` at once. Each ends with
 * every event handled once. races.test.ts runs the same races in process, with more variants.
 */
import { fileURLToPath } from 'node:url';
import { methods } from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AGENT } from '../support/keys.js';
import { type AgentProcess, startAgentProcess } from '../examples/support/agent-process.js';
import { raceEvent, racePrompt } from './support/race-prompt.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/race-agent.ts', import.meta.url));
const prompt = methods.agent.session.prompt;

let agent: AgentProcess;
beforeAll(async () => {
  agent = await startAgentProcess(SCRIPT, { BUZZ_AGENT_NPUB: AGENT.pubkey });
}, 30_000);
afterAll(async () => {
  expect(await agent.stop()).toBe(0);
});

/** A new session of the agent (each test has its own turn registry). */
async function session(): Promise<string> {
  return (await agent.host.request(methods.agent.session.new, { cwd: '/', mcpServers: [] })).sessionId;
}

describe('buzzHandlers races over stdio', () => {
  test('session/cancel while turn 1 is still claiming, then the merged prompt: the cancelled event is carried', async () => {
    const [a, b] = [raceEvent('1'), raceEvent('2', 2)];
    const id = await session();
    agent.signal('SIGUSR1');
    await agent.stderrHas('holding');
    const first = agent.host.request(prompt, racePrompt(id, [a]));
    await agent.stderrHas('claim entered');
    await agent.host.notify(methods.agent.session.cancel, { sessionId: id });
    const merged = agent.host.request(prompt, racePrompt(id, [b], [a]));
    // The merged prompt is in the agent before turn 1's claim lands.
    await agent.stderrHas(`prompt ${id}`, 2);
    agent.signal('SIGUSR2');
    expect(await first).toEqual({ stopReason: 'cancelled', _meta: { buzzMeta: { outcome: 'cancelled' } } });
    expect(await merged).toEqual({ stopReason: 'end_turn', _meta: { raceAgent: { fresh: [b.id], carried: [a.id] } } });
    // Both are handled now: a replay of either is all-seen.
    expect(await agent.host.request(prompt, racePrompt(id, [a, b]))).toEqual({
      stopReason: 'end_turn',
      _meta: { buzzMeta: { outcome: 'all-seen', seen: 2 } },
    });
  });

  test('a request cancelled ($/cancel_request) before its handler starts commits nothing', async () => {
    const a = raceEvent('3');
    const id = await session();
    const abort = new AbortController();
    const cancelled = agent.host.request(prompt, racePrompt(id, [a], [], 'after-abort'), {
      cancellationSignal: abort.signal,
    });
    await agent.stderrHas(`prompt ${id}`);
    abort.abort();
    expect(await cancelled).toEqual({ stopReason: 'cancelled', _meta: { buzzMeta: { outcome: 'cancelled' } } });
    // The retry finds A free: the cancelled request left no lease and no mark; its handler never ran.
    expect(await agent.host.request(prompt, racePrompt(id, [a]))).toEqual({
      stopReason: 'end_turn',
      _meta: { raceAgent: { fresh: [a.id], carried: [] } },
    });
    expect(agent.stderr()).not.toContain('handler after-abort');
  });

  test('a hung handler is answered cancelled at once on session/cancel; its events are released', async () => {
    const a = raceEvent('4');
    const id = await session();
    const hung = agent.host.request(prompt, racePrompt(id, [a], [], 'hang'));
    await agent.stderrHas('handler hang');
    const started = performance.now();
    await agent.host.notify(methods.agent.session.cancel, { sessionId: id });
    expect(await hung).toEqual({ stopReason: 'cancelled', _meta: { buzzMeta: { outcome: 'cancelled' } } });
    expect(performance.now() - started).toBeLessThan(1_000);
    // The host retries on another session: A is handled there, once.
    const retry = await session();
    expect(await agent.host.request(prompt, racePrompt(retry, [a]))).toEqual({
      stopReason: 'end_turn',
      _meta: { raceAgent: { fresh: [a.id], carried: [] } },
    });
  });
});
