/**
 * The v1 envelope's unkeyed hashes: anyone can recompute them, so they prove consistency, not
 * origin. `deliveryId` is a correlation and dedup key; only the attestation proves who sent it.
 */
import { ENVELOPE_DOMAIN } from './schema.js';
import { canonicalJson, canonicalize } from './canonical-json.js';
import { bytesToHex, domainDigest, sha256Hex } from './crypto.js';

/** The parts of an envelope `deliveryId` commits to. */
export interface DeliveryIdInput {
  /** The envelope version (1). */
  readonly version: unknown;
  /** The channel object, as sent. */
  readonly channel: unknown;
  /** The reply anchors, as sent. */
  readonly reply: unknown;
  /** The events; only their ids are hashed. */
  readonly events: readonly { readonly id: unknown }[];
  /** The job summary, when present; only its `eventId` is hashed. */
  readonly job?: { readonly eventId: unknown } | undefined;
}

/**
 * Recomputes an envelope's `deliveryId`: sha256 of canonical
 * `{ version, channel, reply, eventIds[, jobEventId] }`.
 *
 * @example
 * ```ts
 * deliveryIdOf(envelope) === envelope.deliveryId // true for an intact envelope
 * ```
 * @throws BuzzMetaError `canonical_json` when a value cannot be canonicalized.
 */
export function deliveryIdOf(envelope: DeliveryIdInput, maxDepth?: number): string {
  const eventIds: unknown[] = [];
  for (const event of envelope.events) eventIds.push(event.id);
  const subject: Record<string, unknown> = {
    version: envelope.version,
    channel: envelope.channel,
    reply: envelope.reply,
    eventIds,
  };
  if (envelope.job !== undefined) subject.jobEventId = envelope.job.eventId;
  return sha256Hex(canonicalJson(subject, maxDepth));
}

/**
 * Recomputes a channel's `membershipRevision`: `"v1:"` + sha256 of canonical
 * `{ version: 1, channelId, members }` (members as sent, which the host sorts by pubkey).
 *
 * @example
 * ```ts
 * membershipRevisionOf(channel.id, channel.members) === channel.membershipRevision
 * ```
 */
export function membershipRevisionOf(channelId: string, members: unknown, maxDepth?: number): string {
  return 'v1:' + sha256Hex(canonicalJson({ version: 1, channelId, members }, maxDepth));
}

/**
 * The attestation digest: sha256(`"buzz-acp-envelope-v1"` ‖ 0x00 ‖ canonical(envelope without
 * `attestation`)). Every other own key of the envelope is covered, known or not.
 */
export function attestationDigest(envelope: object, maxDepth?: number): Uint8Array {
  return domainDigest(ENVELOPE_DOMAIN, canonicalJson(withoutKey(envelope, 'attestation'), maxDepth));
}

/** The three hashes a received envelope commits to, recomputed. */
export interface EnvelopeHashes {
  /** The attestation digest (see {@link attestationDigest}). */
  readonly digest: Uint8Array;
  /** The recomputed `deliveryId`. */
  readonly deliveryId: string;
  /** The recomputed `membershipRevision`. */
  readonly membershipRevision: string;
}

/**
 * Recomputes all three hashes of a received (schema-checked) envelope, walking each value once:
 * the canonical texts of `channel`, its `members` and `reply`, written for the attestation digest,
 * are reused for `deliveryId` and `membershipRevision` instead of being canonicalized again.
 */
export function envelopeHashes(
  received: Readonly<Record<string, unknown>> & { readonly channel: Readonly<Record<string, unknown>> },
  eventIds: readonly string[],
  jobEventId: string | undefined,
  maxDepth: number,
  maxNodes: number,
): EnvelopeHashes {
  const texts = new Map<object, string | undefined>();
  for (const part of [received.channel, received.channel.members, received.reply]) {
    if (typeof part === 'object' && part !== null) texts.set(part, undefined);
  }
  const options = { maxDepth, maxNodes, texts };
  const digest = domainDigest(ENVELOPE_DOMAIN, canonicalize(withoutKey(received, 'attestation'), options));
  const subject: Record<string, unknown> = {
    version: received.version,
    channel: received.channel,
    reply: received.reply,
    eventIds,
  };
  if (jobEventId !== undefined) subject.jobEventId = jobEventId;
  const deliveryId = sha256Hex(canonicalize(subject, options));
  const channelId = received.channel.id;
  const revision = canonicalize({ version: 1, channelId, members: received.channel.members }, options);
  return { digest, deliveryId, membershipRevision: 'v1:' + sha256Hex(revision) };
}

/**
 * A shallow copy of `value`'s own enumerable keys but one. Uses defineProperty, not assignment,
 * so an own `"__proto__"` key stays a plain data key instead of replacing the prototype.
 */
export function withoutKey(value: object, omitted: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === omitted) continue;
    Object.defineProperty(out, key, {
      value: (value as Record<string, unknown>)[key],
      enumerable: true,
      configurable: true,
      writable: true,
    });
  }
  return out;
}

/**
 * The attestation digest as 64 lowercase hex digits: the value `attestation.payloadHash` must have.
 *
 * @example
 * ```ts
 * payloadHashOf(envelope) === envelope.attestation.payloadHash // true for an intact envelope
 * ```
 */
export function payloadHashOf(envelope: object, maxDepth?: number): string {
  return bytesToHex(attestationDigest(envelope, maxDepth));
}
