/**
 * A real ACP agent (run as a child process by examples/demo.ts) that reads the Buzz context of
 * every `session/prompt` with buzz-meta and answers with what it learned.
 *
 * Configuration: `BUZZ_AGENT_NPUB` is this agent's own pubkey (npub or 64 hex), pinned by whoever
 * runs the agent — never taken from a request. Stdout is the ACP protocol channel, so everything
 * this process logs goes to stderr, and it logs only outcomes: never prompt text, never keys.
 *
 * The answer is one `agent_message_chunk` whose text is a JSON {@link AgentReport}, so the demo
 * can check it exactly; a real agent would act on the context instead.
 */
import { Readable, Writable } from 'node:stream';
import { agent, methods, ndJsonStream, PROTOCOL_VERSION, type PromptRequest } from '@agentclientprotocol/sdk';
import {
  channelKey,
  partitionId,
  readBuzzContext,
  senderKey,
  senderKeys,
  threadKey,
  toHexPubkey,
  toNpub,
} from '../src/index.js';

/** What this agent reports about one prompt: the context it read, or why it refused. */
export type AgentReport =
  | {
      readonly ok: true;
      readonly source: string;
      readonly trust: string;
      readonly channel: string;
      readonly senderNpub: string;
      readonly sender: string;
      readonly senders: readonly string[];
      readonly thread: string | null;
      readonly partition: { readonly channel: string; readonly sender: string };
      readonly deliveryId: string | null;
      readonly diagnostics: readonly string[];
    }
  | { readonly ok: false; readonly code: string; readonly path: string };

// Fail fast at start-up on a missing or malformed key: an agent without a pinned key could only
// ever reach `asserted`, and should not pretend otherwise.
const agentPubkey = toHexPubkey(process.env.BUZZ_AGENT_NPUB ?? '');

/** Reads one prompt's Buzz context into a report. Never throws: a bad request is a refusal. */
function report(params: PromptRequest): AgentReport {
  // No minTrust here, so the demo can show every trust level; an agent that acts on identity
  // would pass `minTrust: 'verified'` (see examples/prompt-handler.ts).
  const read = readBuzzContext(params, { agentPubkey });
  if (!read.ok) return { ok: false, code: read.error.code, path: read.error.path };
  const ctx = read.context;
  const last = ctx.events[ctx.events.length - 1];
  // A delivery may carry no events (the draft allows it): then there is nobody to attribute to.
  if (last === undefined) return { ok: false, code: 'no_sender', path: '/_meta/buzz/events' };
  const sender = partitionId(ctx, { unit: 'sender' });
  return {
    ok: true,
    source: ctx.source,
    trust: ctx.trust,
    channel: channelKey(ctx),
    senderNpub: toNpub(last.sender),
    sender: senderKey(ctx),
    senders: senderKeys(ctx),
    thread: threadKey(ctx),
    partition: { channel: partitionId(ctx, { unit: 'channel' }).id, sender: sender.id },
    deliveryId: ctx.source === 'envelope-v1' ? ctx.deliveryId : null,
    diagnostics: [...ctx.diagnostics, ...sender.diagnostics],
  };
}

function log(line: string): void {
  process.stderr.write(`[agent] ${line}\n`);
}

let sessions = 0;
const connection = agent({ name: 'buzz-meta-demo-agent' })
  .onRequest(methods.agent.initialize, () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }))
  .onRequest(methods.agent.session.new, () => ({ sessionId: `demo-${String(++sessions)}` }))
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const answer = report(params);
    log(answer.ok ? `prompt read: ${answer.source}, ${answer.trust}` : `prompt refused: ${answer.code}`);
    await client.notify(methods.client.session.update, {
      sessionId: params.sessionId,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: JSON.stringify(answer) } },
    });
    return { stopReason: answer.ok ? 'end_turn' : 'refusal' };
  })
  .onNotification(methods.agent.session.cancel, () => undefined)
  .connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));

await connection.closed;
