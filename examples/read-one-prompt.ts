// The README's "read one prompt" snippet (shown from the snippet line on, importing 'buzz-meta';
// test/examples/readme.test.ts runs it). Inside this repository the source is imported instead.
// --- snippet ---
import { readBuzzContext } from '../src/index.js';

// `params`: one ACP session/prompt request's params; `agentPubkey`: the agent's own npub, pinned.
export function whoSent(params: unknown, agentPubkey: string): string {
  const read = readBuzzContext(params, { agentPubkey }); // never throws
  if (!read.ok) return `refused: ${read.error.code}`; // e.g. payload_hash_mismatch
  const { trust, channelId, events } = read.context;
  return `${trust}: ${events.at(-1)?.sender ?? 'nobody'} wrote in channel ${channelId}`;
}
