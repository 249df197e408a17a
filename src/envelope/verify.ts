/**
 * Verification of a v1 envelope against the agent's pinned pubkey. The trust boundary of the SDK:
 * only what passes every check here may be labelled `verified`. Checks run in the order of the wire
 * contract: the envelope's own (keys, payloadHash, deliveryId, membershipRevision, channel binding,
 * reply), then the attestation signature, and only then the per-event work (NIP-01 ids, then
 * signatures). A delivery that fails a stage is not examined further, so a forged one is hashed once
 * (for the digest) and costs at most one Schnorr verification.
 */
import { type BuzzIssue, BuzzMetaError, type BuzzErrorCode, asBuzzError, pointer } from '../errors.js';
import { DEFAULT_LIMITS, type BuzzLimits, resolveLimits } from '../limits.js';
import { toHexPubkey } from '../npub.js';
import { checkInputBounds } from '../shared/input-bounds.js';
import { BUZZ_PATH, checkArrayLength, parseWith } from '../shared/schema-kit.js';
import { bytesToHex } from './crypto.js';
import { jsVerifier, type SignatureVerifier } from './signatures.js';
import { envelopeHashes } from './hashes.js';
import { ENVELOPE_KEY_NAMES, type EnvelopeV1, envelopeParser } from './schema.js';

/** Options of {@link verifyBuzzEnvelope}. */
export interface VerifyEnvelopeOptions {
  /** The managed agent's own pubkey, pinned from configuration: 64 hex digits or an npub. */
  readonly agentPubkey: string;
  /** Size bounds; defaults are `DEFAULT_LIMITS`. */
  readonly limits?: Partial<BuzzLimits>;
}

/** What {@link verifyBuzzEnvelope} found: `ok` only when there are no failures. */
export type EnvelopeVerification =
  | { readonly ok: true; readonly failures: readonly [] }
  | { readonly ok: false; readonly failures: readonly [BuzzIssue, ...BuzzIssue[]] };

/** The result of checking an envelope: the typed copy for reading, or the error. */
export type EnvelopeCheck =
  | { readonly ok: true; readonly envelope: EnvelopeV1; readonly keyed: boolean }
  | { readonly ok: false; readonly error: BuzzMetaError };

/**
 * Verifies a v1 envelope (the value of `_meta.buzz`) against the agent's pinned pubkey:
 * attestation fields, payloadHash, BIP-340 signature, deliveryId, membershipRevision, and every
 * event's id, signature, channel binding (`["h", channel.id]`) and the reply anchor.
 *
 * @example
 * ```ts
 * const { ok, failures } = verifyBuzzEnvelope(params._meta?.buzz, { agentPubkey: 'npub1…' })
 * if (!ok) console.error(failures[0].code) // e.g. 'attestation_signature_invalid'
 * ```
 * @throws BuzzMetaError `invalid_pubkey`/`invalid_npub`/`invalid_option` for bad options only.
 */
export function verifyBuzzEnvelope(envelope: unknown, options: VerifyEnvelopeOptions): EnvelopeVerification {
  // Widened: JavaScript callers omit the options or pass the key itself, and deserve a clear error.
  const given: unknown = options;
  if (typeof given !== 'object' || given === null) {
    throw BuzzMetaError.of(
      'invalid_option',
      '',
      'verifyBuzzEnvelope needs options { agentPubkey }: the agent’s own pubkey from configuration',
    );
  }
  const agentPubkey = pinnedKey(options.agentPubkey);
  const limits = resolveLimits(options.limits);
  let error: BuzzMetaError;
  try {
    const checked = checkEnvelope(envelope, agentPubkey, limits);
    if (checked.ok) return { ok: true, failures: [] };
    error = checked.error;
  } catch (thrown) {
    // Only an in-process object can throw here (a getter, a Proxy): a failure, never a throw.
    error = asBuzzError(thrown);
  }
  const [first, ...rest] = error.issues as [BuzzIssue, ...BuzzIssue[]];
  return { ok: false, failures: [first, ...rest] };
}

/** Normalizes the configured agent key, reporting a bad one as an option error. */
export function pinnedKey(agentPubkey: unknown): string {
  if (agentPubkey === undefined) {
    throw BuzzMetaError.of(
      'invalid_option',
      '/agentPubkey',
      'agentPubkey is required: the agent’s own pubkey from configuration (64 hex digits or an npub)',
    );
  }
  if (typeof agentPubkey !== 'string') {
    throw BuzzMetaError.of('invalid_option', '/agentPubkey', 'agentPubkey must be 64 hex digits or an npub');
  }
  try {
    return toHexPubkey(agentPubkey);
  } catch (error) {
    if (error instanceof BuzzMetaError) {
      throw BuzzMetaError.of(error.code, '/agentPubkey', error.message);
    }
    throw error;
  }
}

/**
 * Schema-checks an envelope, recomputes every unkeyed hash, and — when `agentPubkey` is given —
 * verifies the attestation and every event signature. Without a key a well-formed, self-consistent
 * envelope passes (to be labelled `asserted`).
 */
export function checkEnvelope(
  raw: unknown,
  agentPubkey: string | undefined,
  limits: BuzzLimits = DEFAULT_LIMITS,
  verifier: SignatureVerifier = jsVerifier,
): EnvelopeCheck {
  const tooLong =
    checkArrayLength(raw, 'events', limits.maxEvents, BUZZ_PATH, 'maxEvents') ??
    checkArrayLength(
      typeof raw === 'object' && raw !== null && Object.hasOwn(raw, 'channel')
        ? (raw as { channel: unknown }).channel
        : undefined,
      'members',
      limits.maxMembers,
      [...BUZZ_PATH, 'channel'],
      'maxMembers',
    ) ??
    checkInputBounds(raw, limits, ENVELOPE_KEY_NAMES);
  if (tooLong !== undefined) return { ok: false, error: tooLong };
  const parsed = parseWith(envelopeParser(limits), raw, 'invalid_envelope');
  if (!parsed.ok) return parsed;
  const envelope = parsed.value;
  const received = raw as Record<string, unknown> & { channel: Record<string, unknown> };
  const failures: BuzzIssue[] = [];
  const fail = (code: BuzzErrorCode, path: (string | number)[], message: string): void => {
    failures.push({ code, path: pointer([...BUZZ_PATH, ...path]), message });
  };

  if (agentPubkey !== undefined) {
    if (envelope.attestation.signerPubkey !== agentPubkey) {
      fail(
        'signer_mismatch',
        ['attestation', 'signerPubkey'],
        'the envelope was not attested by this agent’s pinned key',
      );
    }
    if (envelope.channel.agentPubkey !== agentPubkey) {
      fail('agent_mismatch', ['channel', 'agentPubkey'], 'the envelope names another agent than this one');
    }
  }

  let digest: Uint8Array | undefined;
  // NIP-01 ids, computed on request (reusing each content's escaped text) once the envelope holds.
  let eventIds: (() => readonly string[]) | undefined;
  try {
    const hashes = envelopeHashes(received, envelope.events, envelope.job?.eventId, limits.maxDepth, limits.maxNodes);
    digest = hashes.digest;
    eventIds = hashes.eventIds;
    if (bytesToHex(digest) !== envelope.attestation.payloadHash) {
      fail(
        'payload_hash_mismatch',
        ['attestation', 'payloadHash'],
        'payloadHash does not match the envelope’s contents',
      );
    }
    if (hashes.deliveryId !== envelope.deliveryId) {
      fail('delivery_id_mismatch', ['deliveryId'], 'deliveryId does not match channel, reply and event ids');
    }
    if (hashes.membershipRevision !== envelope.channel.membershipRevision) {
      fail(
        'membership_revision_mismatch',
        ['channel', 'membershipRevision'],
        'membershipRevision does not match the member list',
      );
    }
  } catch (thrown) {
    const error = asBuzzError(thrown);
    // The first canonicalization is of the envelope itself, so its path is relative to _meta.buzz.
    failures.push({ code: error.code, path: pointer(BUZZ_PATH) + error.path, message: error.message });
  }

  envelope.events.forEach((event, index) => {
    if (!isBoundToChannel(event.tags, envelope.channel.id)) {
      fail(
        'event_channel_mismatch',
        ['events', index, 'tags'],
        'the event is not bound to this channel by an ["h", channel.id] tag',
      );
    }
  });
  const last = envelope.events[envelope.events.length - 1];
  if (last !== undefined && envelope.reply.replyToEventId !== last.id) {
    fail('reply_mismatch', ['reply', 'replyToEventId'], 'replyToEventId is not the id of the last event');
  }
  if (failures.length > 0) return failed(failures);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: both are set unless the catch above recorded a failure; this is for the type checker
  if (digest === undefined || eventIds === undefined) return failed(failures);

  if (agentPubkey !== undefined && !verifier.verifyDigest(envelope.attestation.signature, digest, agentPubkey)) {
    fail(
      'attestation_signature_invalid',
      ['attestation', 'signature'],
      'the attestation signature does not verify with the pinned key',
    );
    return failed(failures);
  }

  const ids = eventIds();
  envelope.events.forEach((event, index) => {
    if (ids[index] !== event.id) {
      fail('event_id_mismatch', ['events', index, 'id'], 'the event id is not the NIP-01 hash of the event');
    }
  });
  if (agentPubkey !== undefined && failures.length === 0) {
    envelope.events.forEach((event, index) => {
      if (!verifier.verifyEvent(event)) {
        fail(
          'event_signature_invalid',
          ['events', index, 'sig'],
          'the event signature does not verify with its author’s pubkey',
        );
      }
    });
  }

  if (failures.length > 0) return failed(failures);
  return { ok: true, envelope, keyed: agentPubkey !== undefined };
}

/** The check's result for a non-empty list of failures. */
function failed(failures: readonly BuzzIssue[]): EnvelopeCheck {
  const [first, ...rest] = failures as [BuzzIssue, ...BuzzIssue[]];
  return { ok: false, error: new BuzzMetaError(first, ...rest) };
}

/**
 * Bound as upstream binds it: at least one `["h", channel.id]` tag. Further `h` tags (another
 * channel, no value) were signed by the author, so they forge nothing; the context reports them.
 */
function isBoundToChannel(tags: readonly (readonly string[])[], channelId: string): boolean {
  return tags.some((tag) => tag[0] === 'h' && tag[1] === channelId);
}
