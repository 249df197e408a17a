/**
 * The complete signed NIP-01 event as it travels in a v1 envelope, and the one way this package
 * copies it: field by field, so no extra key or symbol (nostr-tools caches verdicts under one)
 * rides along.
 */

/**
 * A complete signed NIP-01 event.
 *
 * @example
 * ```ts
 * import { signEvent } from 'buzz-meta/host'
 *
 * // NostrEvent: import type { NostrEvent } from 'buzz-meta/host'
 * const template = { kind: 9, created_at: 1_760_000_000, tags: [['h', channelId]], content: 'hi' }
 * const event: NostrEvent = signEvent(template, ownerKey) // id, pubkey, sig
 * ```
 * @group Host
 */
export interface NostrEvent {
  /** Event id, 64 hex. */
  readonly id: string;
  /** Author pubkey, 64 hex. */
  readonly pubkey: string;
  /** Unix seconds. */
  readonly created_at: number;
  /** Event kind. */
  readonly kind: number;
  /** Tags. */
  readonly tags: readonly (readonly string[])[];
  /** Content. */
  readonly content: string;
  /** BIP-340 signature, 128 hex. */
  readonly sig: string;
}

/** A fresh plain copy of an event's seven NIP-01 fields (tags copied too). */
export function copyEvent(event: NostrEvent): NostrEvent {
  return {
    id: event.id,
    pubkey: event.pubkey,
    created_at: event.created_at,
    kind: event.kind,
    tags: event.tags.map((tag) => tag.slice()),
    content: event.content,
    sig: event.sig,
  };
}
