/**
 * The dedup key of one event within its channel. An event id is its own key, so a verified and a
 * scraped context carrying the same id dedup against each other. Events without an id (the oldest
 * prompt-text eras) are keyed by a hash of what identifies them on screen.
 */
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { BuzzEvent } from '../context.js';
import { sha2 } from '../shared/deferred.js';

/** Prefix of hashed keys; `:` never occurs in a 64-hex event id, so the two kinds never collide. */
const HASHED_KEY_PREFIX = 'h:';

/**
 * The dedup key of `event` in channel `channelId`: the event id, or for an id-less event
 * `h:` + hex SHA-256 of the UTF-8 text `channelId \n sender \n createdAt \n content` (createdAt in
 * decimal, content `''` when absent; content is last, so its own newlines cannot shift a field).
 *
 * @example
 * ```ts
 * dedupKeyOf('5f0c…', { id: null, sender: 'ab…', kind: null, createdAt: 1700000000, content: 'hi' })
 * // 'h:' + sha256('5f0c…\nab…\n1700000000\nhi')
 * ```
 * @group Dedup
 */
export function dedupKeyOf(channelId: string, event: BuzzEvent): string {
  if (event.id !== null) return event.id;
  const text = `${channelId}\n${event.sender}\n${String(event.createdAt)}\n${event.content ?? ''}`;
  return HASHED_KEY_PREFIX + bytesToHex(sha2().sha256(utf8ToBytes(text)));
}
