// The README's first example: a complete ACP agent on stdio (the README shows it from the
// snippet line on, importing 'buzz-meta'; test/examples/first-agent.test.ts runs it with
// examples/first-host.ts). Inside this repository the source is imported instead.
// --- snippet ---
import { randomUUID } from 'node:crypto';
import { agent, methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { createBuzzReader, createDeduper } from '../src/index.js';
import { buzzHandlers, connectStdio } from '../src/acp/index.js';

// This agent's own npub, pinned in its configuration (`npx buzz-meta keygen` makes one).
// A missing or malformed key stops it at start-up with one line, not after every prompt.
const reader = await createBuzzReader({
  agentPubkey: process.env.BUZZ_AGENT_NPUB ?? '',
  minTrust: 'verified',
}).catch((error: unknown) => {
  console.error(`my-agent: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
const turnsBySender = new Map<string, number>(); // per-sender state, keyed by a proven identity

const buzz = buzzHandlers({ reader, deduper: createDeduper(), missing: 'refuse' }, ({ buzz }) => {
  const sender = buzz.keys.sender ?? buzz.keys.channel; // 'buzz:pubkey:<hex>' of the last author
  turnsBySender.set(sender, (turnsBySender.get(sender) ?? 0) + 1);
  console.error(`turn ${String(turnsBySender.get(sender))} of this sender`); // never stdout
  return { stopReason: 'end_turn' };
});

await connectStdio(
  agent({ name: 'my-agent' })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {},
    }))
    .onRequest(methods.agent.session.new, () => ({ sessionId: randomUUID() }))
    .onRequest(methods.agent.session.prompt, buzz.prompt)
    .onNotification(methods.agent.session.cancel, buzz.cancel),
).closed;
