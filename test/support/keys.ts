/**
 * Fixed Nostr keys for tests and vectors, and deterministic signing with them.
 *
 * The secret keys are sha256("buzz-meta/test-key/<label>"): public, reproducible, and never
 * valid anywhere else. Signing here passes an all-zero BIP-340 aux value instead of noble's
 * random default, so the same input always yields the same signature and the committed vectors
 * regenerate byte for byte. (Any valid BIP-340 signature verifies; the aux value only picks one.)
 *
 * @packageDocumentation
 */
import { schnorr } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { npubEncode } from 'nostr-tools/nip19';
import { getEventHash } from 'nostr-tools/pure';
import type { EventTemplate, NostrEvent } from '../../src/host.js';
import { attestationDigest, withoutKey } from '../../src/envelope/hashes.js';

/** A fixed test identity. */
export interface TestKey {
  /** What the key stands for in tests (`owner`, `agent`, …). */
  readonly label: string;
  /** The 32-byte secret key. */
  readonly secretKey: Uint8Array;
  /** The secret key as 64 lowercase hex digits (for vector files). */
  readonly secretKeyHex: string;
  /** The x-only public key, 64 lowercase hex digits. */
  readonly pubkey: string;
  /** The public key as an npub. */
  readonly npub: string;
}

function testKey(label: string, secretKeyHex: string): TestKey {
  const secretKey = hexToBytes(secretKeyHex);
  const pubkey = bytesToHex(schnorr.getPublicKey(secretKey));
  return { label, secretKey, secretKeyHex, pubkey, npub: npubEncode(pubkey) };
}

/** The channel owner: authors every chat event (upstream P0). Sorts before `agent` by pubkey. */
export const OWNER = testKey('owner', 'eeeaf7ecfe0f7cd88c3b24db0b40e88174f8290fd8d4144e39c91a91290d56bd');
/** The managed agent: attests envelopes; its pubkey is what an agent pins. */
export const AGENT = testKey('agent', 'b7506643bf8607abd31e90c8b884330491ae552da594253b9d5f27b57893cab6');
/** Someone else: a valid key that must never be accepted in place of owner or agent. */
export const STRANGER = testKey('stranger', 'f602c5e23956b82be496424b1ce6b247607f01a4c43952f52e790a99e32e57fa');

/** Every fixed key, for listing in vector files. */
export const TEST_KEYS: readonly TestKey[] = [OWNER, AGENT, STRANGER];

/** BIP-340 aux randomness fixed at 32 zero bytes, so signatures are reproducible. */
const ZERO_AUX = new Uint8Array(32);

/**
 * Signs an event template as `key`, deterministically (NIP-01 id, BIP-340 signature).
 *
 * @example
 * ```ts
 * const event = signEventFixed({ kind: 9, created_at: 1785840000, tags: [['h', channelId]], content: 'hi' }, OWNER)
 * ```
 */
export function signEventFixed(template: EventTemplate, key: TestKey): NostrEvent {
  const unsigned = {
    pubkey: key.pubkey,
    created_at: template.created_at,
    kind: template.kind,
    tags: template.tags.map((tag) => tag.slice()),
    content: template.content,
  };
  const id = getEventHash(unsigned);
  const sig = bytesToHex(schnorr.sign(hexToBytes(id), key.secretKey, ZERO_AUX));
  return { id, ...unsigned, sig };
}

/**
 * Replaces an envelope's attestation with a deterministic one by `key` (same digest as
 * `attestBuzzEnvelope`, zero aux). Own `"__proto__"` keys stay plain data keys.
 */
export function attestFixed(envelope: object, key: TestKey): Record<string, unknown> {
  const digest = attestationDigest(envelope);
  const out = withoutKey(envelope, 'attestation');
  out.attestation = {
    algorithm: 'bip340-sha256',
    signerPubkey: key.pubkey,
    payloadHash: bytesToHex(digest),
    signature: bytesToHex(schnorr.sign(digest, key.secretKey, ZERO_AUX)),
  };
  return out;
}
