/**
 * The prompts of the race tests: a draft `_meta.buzz` of one channel with the events (and a
 * Steer merge's cancelled events) given, and the text the stdio race agent reads as what to do.
 *
 * @packageDocumentation
 */
import type { PromptRequest } from '@agentclientprotocol/sdk';
import { CHANNEL_ID, jsonCopy } from '../../envelope/sample.js';
import { OWNER } from '../../support/keys.js';

/** A draft event of {@link OWNER} with id `letter` × 64. */
export function raceEvent(
  letter: string,
  createdAt = 1,
): { id: string; sender: string; kind: number; createdAt: number } {
  return { id: letter.repeat(64), sender: OWNER.pubkey, kind: 9, createdAt };
}

/** `session/prompt` params carrying `events` (and `cancelledEvents`) of CHANNEL_ID as a draft. */
export function racePrompt(
  sessionId: string,
  events: unknown[],
  cancelledEvents: unknown[] = [],
  text = 'hi',
): PromptRequest {
  const buzz = { channelId: CHANNEL_ID, channelType: 'channel', events, cancelledEvents };
  return { sessionId, prompt: [{ type: 'text', text }], _meta: { buzz: jsonCopy(buzz) } };
}
