/**
 * Verification of a v1 envelope against the agent's pinned pubkey. The trust boundary of the SDK:
 * only what passes every check here may be labelled `verified`. The wire contract's five steps
 * ("How a consumer verifies it"), staged cheapest first: the envelope's own checks (step 1, the
 * pinned key; steps 2 and 4, the recomputed hashes; step 5's channel binding and reply anchor),
 * then the attestation signature (step 3), and only then the per-event work of step 5 (NIP-01
 * ids, then signatures). A delivery that fails a stage is not examined further, so a forged one is
 * hashed once (for the digest) and costs at most one Schnorr verification.
 */
import { type BuzzIssue, BuzzMetaError, type BuzzErrorCode, asBuzzError, pointer, type Result } from '../errors.js';
import { DEFAULT_LIMITS, type BuzzLimits, resolveLimits } from '../limits.js';
import { toHexPubkey } from '../npub.js';
import { checkInputBounds } from '../shared/input-bounds.js';
import { BUZZ_PATH, checkArrayLength, parseWith } from '../shared/schema-kit.js';
import { bytesToHex } from './crypto.js';
import { jsVerifier, type SignatureVerifier } from './signatures.js';
import { type EnvelopeHashes, envelopeHashes } from './hashes.js';
import { ENVELOPE_KEY_NAMES, type EnvelopeV1, envelopeParser } from './schema.js';

/**
 * Options of {@link verifyBuzzEnvelope}.
 *
 * @example
 * ```ts
 * import { verifyBuzzEnvelope, type VerifyEnvelopeOptions } from 'buzz-meta'
 *
 * const options: VerifyEnvelopeOptions = { agentPubkey, limits: { maxEvents: 50 } }
 * const verification = verifyBuzzEnvelope(params._meta?.['buzz'], options)
 * ```
 * @group Envelope
 */
export interface VerifyEnvelopeOptions {
  /** The managed agent's own pubkey, pinned from configuration: 64 hex digits or an npub. */
  readonly agentPubkey: string;
  /** Size bounds; defaults are `DEFAULT_LIMITS`. */
  readonly limits?: Partial<BuzzLimits>;
}

/**
 * What {@link verifyBuzzEnvelope} found: `ok` only when there are no failures.
 *
 * @example
 * ```ts
 * import { verifyBuzzEnvelope, type EnvelopeVerification } from 'buzz-meta'
 *
 * const verification: EnvelopeVerification = verifyBuzzEnvelope(envelope, { agentPubkey })
 * if (!verification.ok) console.error(verification.failures[0].code) // at least one failure
 * ```
 * @group Envelope
 */
export type EnvelopeVerification =
  | { readonly ok: true; readonly failures: readonly [] }
  | { readonly ok: false; readonly failures: readonly [BuzzIssue, ...BuzzIssue[]] };

/** An envelope that passed {@link checkEnvelope}: its typed copy, and whether a pinned key verified it. */
interface CheckedEnvelope {
  /** The typed copy for reading (unknown keys dropped; the received object was hashed). */
  readonly envelope: EnvelopeV1;
  /** Whether the attestation and event signatures were verified against a pinned key. */
  readonly keyed: boolean;
}

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
 * @group Envelope
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
  return { ok: false, failures: error.issues };
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
  // Most often an unset environment variable read with `?? ''`: say what to set, not what an npub looks like.
  if (agentPubkey === '') {
    throw BuzzMetaError.of(
      'invalid_option',
      '/agentPubkey',
      'agentPubkey is empty: set it to the agent’s own npub from configuration (e.g. BUZZ_AGENT_NPUB)',
    );
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
 * envelope passes (to be labelled `asserted`). Each stage runs only when the ones before it found
 * nothing: bounds, shape, the envelope's own checks, the attestation signature, the event ids, the
 * event signatures.
 */
export function checkEnvelope(
  raw: unknown,
  agentPubkey: string | undefined,
  limits: BuzzLimits = DEFAULT_LIMITS,
  verifier: SignatureVerifier = jsVerifier,
): Result<CheckedEnvelope> {
  const tooLarge = sizeError(raw, limits);
  if (tooLarge !== undefined) return { ok: false, error: tooLarge };
  const parsed = parseWith(envelopeParser(limits), raw, 'invalid_envelope');
  if (!parsed.ok) return parsed;
  const envelope = parsed.value;
  const own = ownChecks(raw as ReceivedEnvelope, envelope, agentPubkey, limits);
  if (!own.ok) return own;
  if (
    agentPubkey !== undefined &&
    !verifier.verifyDigest(envelope.attestation.signature, own.value.digest, agentPubkey)
  ) {
    return refused([
      finding(
        'attestation_signature_invalid',
        ['attestation', 'signature'],
        'the attestation signature does not verify with the pinned key',
      ),
    ]);
  }
  const wrongIds = refusal(eventIdFindings(envelope, own.value.eventIds()));
  if (wrongIds !== undefined) return wrongIds;
  const badSignatures = agentPubkey === undefined ? undefined : refusal(eventSignatureFindings(envelope, verifier));
  if (badSignatures !== undefined) return badSignatures;
  return { ok: true, value: { envelope, keyed: agentPubkey !== undefined } };
}

/** The envelope as received: hashed as sent, unknown keys included, since the attestation covers them. */
type ReceivedEnvelope = Record<string, unknown> & { channel: Record<string, unknown> };

/** The bounds stage: the two arrays with limits of their own by name, then depth, nodes and sizes of it all. */
function sizeError(raw: unknown, limits: BuzzLimits): BuzzMetaError | undefined {
  return (
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
    checkInputBounds(raw, limits, ENVELOPE_KEY_NAMES)
  );
}

/**
 * The envelope's own checks, all reported together: the pinned key (contract step 1), the
 * recomputed payloadHash, deliveryId and membershipRevision (steps 2 and 4), and each event's
 * channel binding and the reply anchor (step 5). None needs a signature verified, so a forged
 * delivery is refused here after one hashing pass. Yields the hashes the signature stages use.
 */
function ownChecks(
  received: ReceivedEnvelope,
  envelope: EnvelopeV1,
  agentPubkey: string | undefined,
  limits: BuzzLimits,
): Result<EnvelopeHashes> {
  const keys = pinnedKeyFindings(envelope, agentPubkey);
  const bindings = bindingFindings(envelope);
  const hashes = recomputeHashes(received, envelope, limits);
  if (!hashes.ok) {
    // What could not be canonicalized stands where the hash findings would.
    const findings: [BuzzIssue, ...BuzzIssue[]] = [hashes.error, ...bindings];
    findings.unshift(...keys);
    return refused(findings);
  }
  return refusal([...keys, ...hashFindings(envelope, hashes.value), ...bindings]) ?? hashes;
}

/** Contract step 1: the attestation's signer and the channel's agent are both the pinned key. */
function pinnedKeyFindings(envelope: EnvelopeV1, agentPubkey: string | undefined): BuzzIssue[] {
  const findings: BuzzIssue[] = [];
  if (agentPubkey === undefined) return findings;
  if (envelope.attestation.signerPubkey !== agentPubkey) {
    findings.push(
      finding(
        'signer_mismatch',
        ['attestation', 'signerPubkey'],
        'the envelope was not attested by this agent’s pinned key',
      ),
    );
  }
  if (envelope.channel.agentPubkey !== agentPubkey) {
    findings.push(
      finding('agent_mismatch', ['channel', 'agentPubkey'], 'the envelope names another agent than this one'),
    );
  }
  return findings;
}

/**
 * Every hash of the received envelope, recomputed in one pass; NIP-01 ids are computed on request
 * (reusing each content's escaped text) once the envelope holds. A value that cannot be
 * canonicalized is the finding instead.
 */
function recomputeHashes(
  received: ReceivedEnvelope,
  envelope: EnvelopeV1,
  limits: BuzzLimits,
): Result<EnvelopeHashes, BuzzIssue> {
  try {
    const hashes = envelopeHashes(received, envelope.events, envelope.job?.eventId, limits.maxDepth, limits.maxNodes);
    return { ok: true, value: hashes };
  } catch (thrown) {
    const error = asBuzzError(thrown);
    // The first canonicalization is of the envelope itself, so its path is relative to _meta.buzz.
    return { ok: false, error: { code: error.code, path: pointer(BUZZ_PATH) + error.path, message: error.message } };
  }
}

/** Contract steps 2 and 4: payloadHash, deliveryId and membershipRevision are what the envelope hashes to. */
function hashFindings(envelope: EnvelopeV1, hashes: EnvelopeHashes): BuzzIssue[] {
  const findings: BuzzIssue[] = [];
  if (bytesToHex(hashes.digest) !== envelope.attestation.payloadHash) {
    findings.push(
      finding(
        'payload_hash_mismatch',
        ['attestation', 'payloadHash'],
        'payloadHash does not match the envelope’s contents',
      ),
    );
  }
  if (hashes.deliveryId !== envelope.deliveryId) {
    findings.push(
      finding('delivery_id_mismatch', ['deliveryId'], 'deliveryId does not match channel, reply and event ids'),
    );
  }
  if (hashes.membershipRevision !== envelope.channel.membershipRevision) {
    findings.push(
      finding(
        'membership_revision_mismatch',
        ['channel', 'membershipRevision'],
        'membershipRevision does not match the member list',
      ),
    );
  }
  return findings;
}

/** Contract step 5, the part without hashing: every event bound to the channel, the reply naming the last one. */
function bindingFindings(envelope: EnvelopeV1): BuzzIssue[] {
  const findings: BuzzIssue[] = [];
  envelope.events.forEach((event, index) => {
    if (!isBoundToChannel(event.tags, envelope.channel.id)) {
      findings.push(
        finding(
          'event_channel_mismatch',
          ['events', index, 'tags'],
          'the event is not bound to this channel by an ["h", channel.id] tag',
        ),
      );
    }
  });
  const last = envelope.events[envelope.events.length - 1];
  if (last !== undefined && envelope.reply.replyToEventId !== last.id) {
    findings.push(
      finding('reply_mismatch', ['reply', 'replyToEventId'], 'replyToEventId is not the id of the last event'),
    );
  }
  return findings;
}

/** Contract step 5: every event's id is the NIP-01 hash of the event. */
function eventIdFindings(envelope: EnvelopeV1, ids: readonly string[]): BuzzIssue[] {
  const findings: BuzzIssue[] = [];
  envelope.events.forEach((event, index) => {
    if (ids[index] !== event.id) {
      findings.push(
        finding('event_id_mismatch', ['events', index, 'id'], 'the event id is not the NIP-01 hash of the event'),
      );
    }
  });
  return findings;
}

/** Contract step 5: every event's signature verifies with its author's pubkey. */
function eventSignatureFindings(envelope: EnvelopeV1, verifier: SignatureVerifier): BuzzIssue[] {
  const findings: BuzzIssue[] = [];
  envelope.events.forEach((event, index) => {
    if (!verifier.verifyEvent(event)) {
      findings.push(
        finding(
          'event_signature_invalid',
          ['events', index, 'sig'],
          'the event signature does not verify with its author’s pubkey',
        ),
      );
    }
  });
  return findings;
}

/** One finding about the field at `path` under `_meta.buzz`. */
function finding(code: BuzzErrorCode, path: readonly (string | number)[], message: string): BuzzIssue {
  return { code, path: pointer([...BUZZ_PATH, ...path]), message };
}

/** The check's failure, from its findings in order: the first decides the code. */
function refused(findings: readonly [BuzzIssue, ...BuzzIssue[]]): Result<never> {
  return { ok: false, error: new BuzzMetaError(...findings) };
}

/** The check's failure when a stage found anything; `undefined` lets the next stage run. */
function refusal(findings: readonly BuzzIssue[]): Result<never> | undefined {
  const [first, ...rest] = findings;
  return first === undefined ? undefined : refused([first, ...rest]);
}

/**
 * Bound as upstream binds it: at least one `["h", channel.id]` tag. Further `h` tags (another
 * channel, no value) were signed by the author, so they forge nothing; the context reports them.
 */
function isBoundToChannel(tags: readonly (readonly string[])[], channelId: string): boolean {
  return tags.some((tag) => tag[0] === 'h' && tag[1] === channelId);
}
