/**
 * The v1 envelope's unkeyed hashes: anyone can recompute them, so they prove consistency, not
 * origin. `deliveryId` is a correlation and dedup key; only the attestation proves who sent it.
 */
import { ENVELOPE_DOMAIN } from './schema.js';
import { type MemberText, canonicalJson, canonicalPieces } from './canonical-json.js';
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

/**
 * Recomputes every hash of a received envelope, walking each value once: the canonical texts of
 * `channel`, its `members` and `reply`, written for the attestation digest, are reused for
 * `deliveryId` and `membershipRevision`, and each event's escaped content for its NIP-01 id
 * (computed later, on request), instead of being canonicalized or escaped again. `events` is the schema-checked copy of the
 * received events; an id is always computed from it (a reused text only when it was written from
 * the very same content string).
 */
export function envelopeHashes(
  received: Readonly<Record<string, unknown>> & { readonly channel: Readonly<Record<string, unknown>> },
  events: readonly (NostrEventFields & { readonly id: string })[],
  jobEventId: string | undefined,
  maxDepth: number,
  maxNodes: number,
  keyLists: ReadonlyMap<object, string[]> = new Map(),
): EnvelopeHashes {
  const signed = withoutKey(received, 'attestation');
  // Which texts are kept for reuse only saves work: a text not kept is written again, the same (the
  // tests compare every hash with an independent computation), so the mutants of this bookkeeping are
  // equivalent (docs/testing.md).
  // Stryker disable ArrayDeclaration,ConditionalExpression,LogicalOperator,EqualityOperator,BlockStatement,StringLiteral
  const texts = new Map<object, readonly string[] | undefined>();
  for (const part of [received.channel, received.channel.members, received.reply]) {
    if (typeof part === 'object' && part !== null) texts.set(part, undefined);
  }
  const members = new Map<object, Map<string, MemberText>>();
  const written = (Array.isArray(signed.events) ? (signed.events as unknown[]) : []).map((event) => {
    const fields = new Map<string, MemberText>();
    if (typeof event === 'object' && event !== null) members.set(event, fields);
    return fields;
  });
  // Stryker restore ArrayDeclaration,ConditionalExpression,LogicalOperator,EqualityOperator,BlockStatement,StringLiteral
  // Depth and nodes were bounded by checkInputBounds before this runs: without them (`{}`) the same texts come out.
  // Stryker disable next-line ObjectLiteral
  const options = { maxDepth, maxNodes, texts, members, keyLists };
  const digest = sha256OfPieces(canonicalPieces(signed, options), domainPrefix(ENVELOPE_DOMAIN));
  const eventIds = (): readonly string[] =>
    events.map((event, index) => {
      // Reuse only: without the kept text (`?.` and the key, when mutated, only lose it) the content is written again, the same.
      // Stryker disable next-line OptionalChaining,StringLiteral
      const content = written[index]?.get('content');
      // Stryker disable next-line OptionalChaining: every schema-checked event has a string content, so one is always recorded
      return nostrEventId(event, content?.value === event.content ? content.pieces : undefined);
    });
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
