/**
 * The v1 envelope's unkeyed hashes: anyone can recompute them, so they prove consistency, not
 * origin. `deliveryId` is a correlation and dedup key; only the attestation proves who sent it.
 */
import { ENVELOPE_DOMAIN } from './schema.js';
import { type MemberText, type Pieces, canonicalJson, canonicalPieces } from './canonical-json.js';
import {
  type NostrEventFields,
  bytesToHex,
  domainDigest,
  domainPrefix,
  nostrEventId,
  sha256Hex,
  sha256HexOfPieces,
  sha256OfPieces,
} from './crypto.js';

/**
 * The parts of an envelope `deliveryId` commits to.
 *
 * @example
 * ```ts
 * import { deliveryIdOf, type DeliveryIdInput } from 'buzz-meta'
 *
 * const parts: DeliveryIdInput = envelope // version, channel, events, reply and job of a v1 envelope
 * const matches = deliveryIdOf(parts) === envelope.deliveryId
 * ```
 * @group Envelope
 */
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
 * @group Envelope
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
 * @group Envelope
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

/** The hashes a received envelope commits to, recomputed. */
export interface EnvelopeHashes {
  /** The attestation digest (see {@link attestationDigest}). */
  readonly digest: Uint8Array;
  /** The recomputed `deliveryId`. */
  readonly deliveryId: string;
  /** The recomputed `membershipRevision`. */
  readonly membershipRevision: string;
  /**
   * The NIP-01 id of each event, in order, computed on the call: the verifier asks only once the
   * envelope's own checks hold, so a forged delivery is hashed once, not twice.
   */
  readonly eventIds: () => readonly string[];
}

/** A received envelope as the hashes read it: any object with a `channel` object. */
type EnvelopeParts = Readonly<Record<string, unknown>> & { readonly channel: Readonly<Record<string, unknown>> };

/**
 * Recomputes every hash of a received envelope, walking each value once: the canonical texts of
 * `channel`, its `members` and `reply`, written for the attestation digest, are reused for
 * `deliveryId` and `membershipRevision`, and each event's escaped content for its NIP-01 id
 * (computed later, on request), instead of being canonicalized or escaped again. `events` is the schema-checked copy of the
 * received events; an id is always computed from it (a reused text only when it was written from
 * the very same content string).
 */
export function envelopeHashes(
  received: EnvelopeParts,
  events: readonly (NostrEventFields & { readonly id: string })[],
  jobEventId: string | undefined,
  maxDepth: number,
  maxNodes: number,
): EnvelopeHashes {
  const signed = withoutKey(received, 'attestation');
  const reuse = reusableTexts(received, signed);
  // Depth and nodes were bounded by checkInputBounds before this runs.
  const options = { maxDepth, maxNodes, texts: reuse.texts, members: reuse.members };
  const digest = sha256OfPieces(canonicalPieces(signed, options), domainPrefix(ENVELOPE_DOMAIN));
  const eventIds = (): readonly string[] =>
    events.map((event, index) => nostrEventId(event, reuse.contentOf(index, event.content)));
  const subject: Record<string, unknown> = {
    version: received.version,
    channel: received.channel,
    reply: received.reply,
    eventIds: events.map((event) => event.id),
  };
  if (jobEventId !== undefined) subject.jobEventId = jobEventId;
  const deliveryId = sha256HexOfPieces(canonicalPieces(subject, options));
  const channelId = received.channel.id;
  const revision = canonicalPieces({ version: 1, channelId, members: received.channel.members }, options);
  return { digest, deliveryId, membershipRevision: 'v1:' + sha256HexOfPieces(revision), eventIds };
}

/** Where the canonical writer keeps texts for reuse while it writes the signed envelope. */
interface ReusableTexts {
  /** `channel`, its `members` and `reply`, by identity: hashed again for deliveryId and membershipRevision. */
  readonly texts: Map<object, Pieces | undefined>;
  /** Each event's string members by key, as written. */
  readonly members: Map<object, Map<string, MemberText>>;
  /** Event `index`'s content as JSON text, when it was written from the very string `content`. */
  contentOf(index: number, content: string): Pieces | undefined;
}

/**
 * The one place the envelope's hashes share work (a large delivery is escaped and written once,
 * not once per hash). A text not kept is written again, the same.
 */
function reusableTexts(received: EnvelopeParts, signed: Readonly<Record<string, unknown>>): ReusableTexts {
  const texts = new Map<object, Pieces | undefined>();
  for (const part of [received.channel, received.channel.members, received.reply]) {
    if (typeof part === 'object' && part !== null) texts.set(part, undefined);
  }
  const members = new Map<object, Map<string, MemberText>>();
  const written = (Array.isArray(signed.events) ? (signed.events as unknown[]) : []).map((event) => {
    const fields = new Map<string, MemberText>();
    if (typeof event === 'object' && event !== null) members.set(event, fields);
    return fields;
  });
  const contentOf = (index: number, content: string): Pieces | undefined => {
    const kept = written[index]?.get('content');
    return kept?.value === content ? kept.pieces : undefined;
  };
  return { texts, members, contentOf };
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
 * @group Envelope
 */
export function payloadHashOf(envelope: object, maxDepth?: number): string {
  return bytesToHex(attestationDigest(envelope, maxDepth));
}
