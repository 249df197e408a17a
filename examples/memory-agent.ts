/**
 * A memory-partitioning ACP agent: it keeps one memory per channel and one per sender, keyed by
 * buzz-meta's partition keys, so what one person tells it never leaks into another's memory.
 * Runs on stdio: `BUZZ_AGENT_NPUB=npub1… node --import tsx examples/memory-agent.ts`
 * (examples/demo.ts starts it as a child process and talks to it as Buzz would).
 *
 * It accepts every trust level so the demo can show them all; the trust of each memory write is
 * kept next to it. An agent that acts on identity reads with `minTrust: 'verified'`
 * (examples/authz-agent.ts). Logs go to stderr, never prompt text or keys: stdout is the protocol.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { agent, methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { buzzHandlers, connectStdio } from '../src/acp/index.js';
import { createBuzzReader, createDeduper } from '../src/index.js';
import { LONG_TASK, type MemoryReport } from './memory-report.js';
import { startUp } from './start-up.js';

const reader = await startUp('memory-agent', () =>
  createBuzzReader({ agentPubkey: process.env.BUZZ_AGENT_NPUB ?? '' }),
);
const deduper = createDeduper(); // one process: the memory store; a pool shares Redis (pooled-agent.ts)
const channelMemory = new Map<string, string[]>();
const senderMemory = new Map<string, number>();

const log = (line: string): void => void process.stderr.write(`[memory-agent] ${line}\n`);

const buzz = buzzHandlers(
  {
    reader,
    deduper,
    onOutcome: (outcome) => {
      log(`answered without the handler: ${outcome.outcome}`);
    },
  },
  async ({ params, client, signal, buzz }) => {
    if (buzz === undefined) return { stopReason: 'refusal' }; // no Buzz context: nothing to partition on
    const asked = params.prompt.some((block) => block.type === 'text' && block.text.includes(LONG_TASK));
    if (asked) await sleep(30_000, undefined, { signal }); // rejects when session/cancel arrives
    const { context, keys, fresh, seen, carried } = buzz;
    const notes = channelMemory.get(keys.channel) ?? [];
    notes.push(`${String(fresh.length + carried.length)} events, ${context.trust}`);
    channelMemory.set(keys.channel, notes);
    if (keys.sender !== null) senderMemory.set(keys.sender, (senderMemory.get(keys.sender) ?? 0) + 1);
    const report: MemoryReport = {
      source: context.source,
      trust: context.trust,
      channel: keys.channel,
      sender: keys.sender,
      fresh: fresh.map((event) => event.id),
      seen: seen.map((event) => event.id),
      carried: carried.map((event) => event.id),
      memory: {
        channelTurns: notes.length,
        senderTurns: keys.sender === null ? 0 : (senderMemory.get(keys.sender) ?? 0),
      },
      diagnostics: context.diagnostics,
    };
    await client.notify(methods.client.session.update, {
      sessionId: params.sessionId,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: JSON.stringify(report) } },
    });
    log(`turn handled: ${context.trust}, ${String(fresh.length)} fresh`);
    return { stopReason: 'end_turn' };
  },
);

let sessions = 0;
const connection = connectStdio(
  agent({ name: 'buzz-meta-memory-agent' })
    .onRequest(methods.agent.initialize, () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }))
    .onRequest(methods.agent.session.new, () => ({ sessionId: `memory-${String(++sessions)}` }))
    .onRequest(methods.agent.session.prompt, buzz.prompt)
    .onNotification(methods.agent.session.cancel, buzz.cancel),
);
await connection.closed;
