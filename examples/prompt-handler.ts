// The README's prompt handler, type-checked (test/examples/readme-snippet.test.ts keeps them equal).
// In your project, import from 'buzz-meta'; inside this repository the source is imported instead.
// --- snippet ---
import { agent, methods } from '@agentclientprotocol/sdk';
import { readBuzzContext, senderKey, toHexPubkey } from '../src/index.js';

const agentPubkey = toHexPubkey(process.env.BUZZ_AGENT_NPUB ?? ''); // pinned config; throws if missing
const turnsBySender = new Map<string, number>(); // per-sender state, keyed by a proven identity

export const app = agent({ name: 'my-agent' }).onRequest(methods.agent.session.prompt, ({ params }) => {
  const read = readBuzzContext(params, { agentPubkey, minTrust: 'verified' });
  if (!read.ok) return { stopReason: 'refusal' }; // read.error.code says why, e.g. 'payload_hash_mismatch'
  const sender = senderKey(read.context); // 'buzz:pubkey:<hex>' of the last event's author
  turnsBySender.set(sender, (turnsBySender.get(sender) ?? 0) + 1);
  return { stopReason: 'end_turn' };
});
