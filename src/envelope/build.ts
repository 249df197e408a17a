/**
 * Host side: builds v1 envelopes exactly as buzz-acp does, for hosts written in TypeScript, test
 * doubles and the demo. The attesting key is the managed agent's own secret key; events must
 * already be signed by their authors.
 */
import { finalizeEvent } from 'nostr-tools/pure';
import type { BuzzJob, BuzzMember, BuzzReply } from '../context.js';
import { BuzzMetaError, pointer } from '../errors.js';
import { isHex64, UUID_PATTERN } from '../shared/hex.js';
import { markedAnchors } from '../shared/nip10.js';
import { isWellFormedUtf16 } from '../shared/utf16.js';
import { publicKeyHex, schnorrSignHex, bytesToHex } from './crypto.js';
import { attestationDigest, deliveryIdOf, membershipRevisionOf, withoutKey } from './hashes.js';
import { copyEvent, type NostrEvent } from './nostr-event.js';
import { ATTESTATION_ALGORITHM } from './schema.js';
import { checkEnvelope } from './verify.js';

export type { NostrEvent } from './nostr-event.js';

/**
 * A v1 envelope as a host sends it under `_meta.buzz`.
 *
 * @example
 * ```ts
 * import { buildBuzzEnvelope } from 'buzz-meta/host'
 *
 * // BuzzEnvelopeV1: import type { BuzzEnvelopeV1 } from 'buzz-meta/host'
 * const built: BuzzEnvelopeV1 = buildBuzzEnvelope({ agentSecretKey, channelId, ownerPubkey, events })
 * console.error(built.deliveryId, built.channel.membershipRevision, built.attestation.signerPubkey)
 * ```
 * @group Host
 */
export interface BuzzEnvelopeV1 {
  /** Always 1. */
  readonly version: 1;
  /** sha256 of the delivery's canonical identity: a dedup key. */
  readonly deliveryId: string;
  /** The channel and its membership. */
  readonly channel: {
    readonly id: string;
    readonly type: 'dm' | 'channel';
    readonly ownerPubkey: string;
    readonly agentPubkey: string;
    readonly members: readonly BuzzMember[];
    readonly membershipRevision: string;
  };
  /** Thread anchors of the last event. */
  readonly reply: BuzzReply;
  /** The signed events, oldest first. */
  readonly events: readonly NostrEvent[];
  /** The job event's summary, when the delivery carries one. */
  readonly job?: BuzzJob;
  /** The agent key's BIP-340 attestation over everything else. */
  readonly attestation: {
    readonly algorithm: 'bip340-sha256';
    readonly signerPubkey: string;
    readonly payloadHash: string;
    readonly signature: string;
  };
}

/**
 * What a host knows when it builds an envelope.
 *
 * @example
 * ```ts
 * import { buildBuzzEnvelope, type BuildEnvelopeInput } from 'buzz-meta/host'
 *
 * const input: BuildEnvelopeInput = { agentSecretKey, channelId, ownerPubkey, events, channelType: 'channel' }
 * const built = buildBuzzEnvelope(input) // what withBuzzEnvelope puts under _meta.buzz
 * ```
 * @group Host
 */
export interface BuildEnvelopeInput {
  /** The managed agent's 32-byte secret key: it attests the envelope. */
  readonly agentSecretKey: Uint8Array;
  /** The channel's UUID (lowercase, hyphenated). */
  readonly channelId: string;
  /** Channel kind (upstream P0 sends only `dm`). Default `'dm'`. */
  readonly channelType?: 'dm' | 'channel';
  /** The channel owner's pubkey (64 hex). */
  readonly ownerPubkey: string;
  /** Members; default owner + agent, both role `member` (upstream P0). Sorted by pubkey on output. */
  readonly members?: readonly BuzzMember[];
  /** Signed events, oldest first; each must carry `["h", channelId]`. */
  readonly events: readonly NostrEvent[];
  /** The job summary, when one of the events is a job event. */
  readonly job?: BuzzJob;
}

/**
 * Builds a signed v1 envelope. A structurally wrong input (an event without the channel's `h` tag,
 * a bad id, an `e` tag buzz-acp would refuse, a lone UTF-16 surrogate in any text) throws; authors' event signatures are taken as given, not re-checked, so the result
 * verifies with `verifyBuzzEnvelope` against the agent's pubkey when the events were signed right.
 *
 * @example
 * ```ts
 * const buzz = buildBuzzEnvelope({ agentSecretKey, channelId, ownerPubkey, events: [signedEvent] })
 * ```
 * @throws BuzzMetaError with the code of the first problem found.
 * @group Host
 */
export function buildBuzzEnvelope(input: BuildEnvelopeInput): BuzzEnvelopeV1 {
  checkInputIds(input);
  refuseIllFormedText(input);
  const agentPubkey = publicKeyHex(input.agentSecretKey);
  const members = sortedMembers(
    input.members ?? [
      { pubkey: input.ownerPubkey, role: 'member' },
      { pubkey: agentPubkey, role: 'member' },
    ],
  );
  const events = input.events.map(copyEvent);
  const last = events[events.length - 1];
  if (last === undefined) throw BuzzMetaError.of('invalid_option', '/events', 'an envelope carries at least one event');
  const channel = {
    id: input.channelId,
    type: input.channelType ?? 'dm',
    ownerPubkey: input.ownerPubkey,
    agentPubkey,
    members,
    membershipRevision: membershipRevisionOf(input.channelId, members),
  };
  const reply = anchorsOf(last, ['events', events.length - 1]);
  const job = input.job === undefined ? undefined : copyJob(input.job);
  const deliveryId = deliveryIdOf({ version: 1, channel, reply, events, job });
  const unsigned =
    job === undefined
      ? { version: 1 as const, deliveryId, channel, reply, events }
      : { version: 1 as const, deliveryId, channel, reply, events, job };
  const envelope = attestBuzzEnvelope(unsigned, input.agentSecretKey) as BuzzEnvelopeV1;
  const check = checkEnvelope(envelope, undefined);
  if (!check.ok) throw check.error;
  return envelope;
}

/**
 * Adds (or replaces) the `attestation` of an envelope-shaped object: payloadHash over everything
 * else, BIP-340 signature by `secretKey`. Returns a new object; the input is not changed.
 * Low-level: it signs whatever it is given, which is what tests of a verifier need.
 *
 * @example
 * ```ts
 * const resigned = attestBuzzEnvelope({ ...envelope, deliveryId: other }, agentSecretKey)
 * ```
 * @group Host
 */
export function attestBuzzEnvelope<T extends object>(
  envelope: T,
  secretKey: Uint8Array,
): Omit<T, 'attestation'> & { attestation: BuzzEnvelopeV1['attestation'] } {
  const digest = attestationDigest(envelope);
  const out = withoutKey(envelope, 'attestation');
  out.attestation = {
    algorithm: ATTESTATION_ALGORITHM,
    signerPubkey: publicKeyHex(secretKey),
    payloadHash: bytesToHex(digest),
    signature: schnorrSignHex(digest, secretKey),
  };
  return out as Omit<T, 'attestation'> & { attestation: BuzzEnvelopeV1['attestation'] };
}

/**
 * The reply anchors buzz-acp's `thread_anchors` derives from the last event's NIP-10 marked `e`
 * tags: the last `reply` marker is the parent (else `null`); the last `root` marker is the root,
 * else the parent, else the event itself; ids are lowercased.
 *
 * @example
 * ```ts
 * replyAnchorsOf({ id, tags: [['e', rootId, '', 'root']] }) // { rootEventId: rootId, parentEventId: null, replyToEventId: id }
 * ```
 * @throws BuzzMetaError `invalid_option` at `/tags/<i>` for an `e` tag without a marker or with an
 *   id that is not 64 hex digits: buzz-acp refuses such an event.
 * @group Host
 */
export function replyAnchorsOf(last: Pick<NostrEvent, 'id' | 'tags'>): BuzzReply {
  return anchorsOf(last, []);
}

function anchorsOf(last: Pick<NostrEvent, 'id' | 'tags'>, at: readonly (string | number)[]): BuzzReply {
  const anchors = markedAnchors(last.tags);
  if (!anchors.ok) {
    throw BuzzMetaError.of('invalid_option', pointer([...at, 'tags', anchors.error.tagIndex]), anchors.error.message);
  }
  const { root, parent } = anchors.value;
  return { rootEventId: root ?? parent ?? last.id, parentEventId: parent ?? null, replyToEventId: last.id };
}

/**
 * Refuses a string that is not well-formed UTF-16 (a lone surrogate): buzz-acp, in Rust, can never
 * produce one, and a Rust consumer cannot parse the envelope that holds it.
 */
function refuseIllFormedText(input: BuildEnvelopeInput): void {
  const check = (text: unknown, path: readonly (string | number)[]): void => {
    if (typeof text === 'string' && !isWellFormedUtf16(text)) {
      throw BuzzMetaError.of(
        'invalid_option',
        pointer(path),
        'the text is not well-formed UTF-16 (it holds a lone surrogate), which buzz-acp never sends',
      );
    }
  };
  // channelId and ownerPubkey need no check: checkInputIds admits only an ASCII UUID and ASCII hex.
  input.events.forEach((event, index) => {
    check(event.content, ['events', index, 'content']);
    event.tags.forEach((tag, tagIndex) => {
      tag.forEach((value, valueIndex) => {
        check(value, ['events', index, 'tags', tagIndex, valueIndex]);
      });
    });
  });
  if (input.job !== undefined) check(input.job.title, ['job', 'title']);
}

/**
 * An unsigned event as a host or test writes it.
 *
 * @example
 * ```ts
 * import { signEvent, type EventTemplate } from 'buzz-meta/host'
 *
 * const now = Math.floor(Date.now() / 1000)
 * const template: EventTemplate = { kind: 9, created_at: now, tags: [['h', channelId]], content: 'hi' }
 * const signed = signEvent(template, ownerKey) // id, pubkey and sig added
 * ```
 * @group Host
 */
export interface EventTemplate {
  /** Event kind (9 for chat). */
  readonly kind: number;
  /** Unix seconds. */
  readonly created_at: number;
  /** Tags; include `["h", channelId]`. */
  readonly tags: readonly (readonly string[])[];
  /** Message text. */
  readonly content: string;
}

/**
 * Signs an event template as its author (NIP-01 id + BIP-340 signature, via nostr-tools).
 * Returns a plain object, free of nostr-tools' cached-verdict symbol.
 *
 * @example
 * ```ts
 * const event = signEvent({ kind: 9, created_at: 1785840000, tags: [['h', channelId]], content: 'hi' }, ownerKey)
 * ```
 * @group Host
 */
export function signEvent(template: EventTemplate, secretKey: Uint8Array): NostrEvent {
  const signed = finalizeEvent(
    {
      kind: template.kind,
      created_at: template.created_at,
      // finalizeEvent only reads the tags (to hash them); copyEvent below copies them for the result.
      tags: template.tags as string[][],
      content: template.content,
    },
    secretKey,
  );
  return copyEvent(signed);
}

/**
 * The members sorted by pubkey, as buzz-acp sends them (membershipRevision hashes this order).
 * A pubkey listed twice is refused: the host would be sending two roles for one person.
 */
function sortedMembers(members: readonly BuzzMember[]): BuzzMember[] {
  const seen = new Set<string>();
  members.forEach((member, index) => {
    if (seen.has(member.pubkey)) {
      throw BuzzMetaError.of('invalid_option', `/members/${String(index)}/pubkey`, 'a member pubkey is listed twice');
    }
    seen.add(member.pubkey);
  });
  // No two pubkeys are equal here, so the comparator never needs a 0. For lowercase hex, `<`
  // (UTF-16 code units) is upstream's byte order.
  return members
    .map((member) => ({ pubkey: member.pubkey, role: member.role }))
    .sort((a, b) => (a.pubkey < b.pubkey ? -1 : 1));
}

/**
 * The identifiers a host most often gets wrong (an npub where hex belongs, an upper-case UUID),
 * reported at the input field the host wrote rather than at the wire path of the envelope
 * built from it.
 */
function checkInputIds(input: BuildEnvelopeInput): void {
  if (typeof input.channelId !== 'string' || !UUID_PATTERN.test(input.channelId)) {
    throw BuzzMetaError.of('invalid_option', '/channelId', 'channelId must be a lowercase, hyphenated UUID');
  }
  if (!isHex64(input.ownerPubkey)) {
    throw BuzzMetaError.of(
      'invalid_option',
      '/ownerPubkey',
      'ownerPubkey must be 64 lowercase hex digits (convert an npub with toHexPubkey)',
    );
  }
  input.members?.forEach((member, index) => {
    if (!isHex64(member.pubkey)) {
      throw BuzzMetaError.of(
        'invalid_option',
        `/members/${String(index)}/pubkey`,
        'a member pubkey must be 64 lowercase hex digits (convert an npub with toHexPubkey)',
      );
    }
  });
}

function copyJob(job: BuzzJob): BuzzJob {
  return { jobId: job.jobId, action: job.action, eventId: job.eventId, title: job.title, dueAt: job.dueAt };
}
