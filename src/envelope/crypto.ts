/**
 * The few primitives verification needs, over the same audited libraries nostr-tools uses
 * (`@noble/hashes`, `@noble/curves`) so the package carries one copy of each.
 *
 * Event checks do not call nostr-tools' `verifyEvent`: it caches its verdict on the event object
 * under a symbol, so an object that verified once and was then changed would still pass.
 */
import { createHash } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { nostrPure, secp256k1 } from '../deferred.js';

/**
 * From this many UTF-16 units on, hashing uses Node's native sha256 (about 20× the throughput of
 * `@noble/hashes` on large input; docs/performance.md). Below it the two cost about the same, and
 * `@noble/hashes` stays. Both encode text as UTF-8 the same way (a lone surrogate as U+FFFD), so
 * the digests are identical either side of the threshold.
 */
export const NATIVE_SHA256_FROM = 16 * 1024;

/** sha256 of a string's UTF-8 bytes, as 64 lowercase hex digits. */
export function sha256Hex(text: string): string {
  if (text.length >= NATIVE_SHA256_FROM) return createHash('sha256').update(text, 'utf8').digest('hex');
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** sha256(domain ‖ 0x00 ‖ utf8(text)): a digest that cannot be confused with one of another protocol. */
export function domainDigest(domain: string, text: string): Uint8Array {
  if (text.length >= NATIVE_SHA256_FROM) {
    const digest = createHash('sha256').update(domain, 'utf8').update(SEPARATOR).update(text, 'utf8').digest();
    return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
  }
  const prefix = utf8ToBytes(domain);
  const body = utf8ToBytes(text);
  const message = new Uint8Array(prefix.length + 1 + body.length);
  message.set(prefix, 0);
  message[prefix.length] = 0;
  message.set(body, prefix.length + 1);
  return sha256(message);
}

const SEPARATOR = Uint8Array.of(0);

/** The fields of a Nostr event that its NIP-01 id commits to. */
export interface NostrEventFields {
  readonly pubkey: string;
  readonly created_at: number;
  readonly kind: number;
  readonly tags: readonly (readonly string[])[];
  readonly content: string;
}

/**
 * The NIP-01 id of an event: sha256 of `[0, pubkey, created_at, kind, tags, content]`, serialized by
 * nostr-tools; hashed here so a large event takes the native path (a keyless sender can make the
 * reader hash every event before any signature is checked).
 */
export function nostrEventId(event: NostrEventFields): string {
  // serializeEvent only reads the fields; its mutable parameter type is a typing accident.
  const { serializeEvent } = nostrPure();
  return sha256Hex(serializeEvent(event as Parameters<typeof serializeEvent>[0]));
}

/** Verifies a BIP-340 signature (128 hex) over a 32-byte message with an x-only pubkey (64 hex). Never throws. */
export function schnorrVerifyHex(signatureHex: string, message: Uint8Array, pubkeyHex: string): boolean {
  try {
    return secp256k1().schnorr.verify(hexToBytes(signatureHex), message, hexToBytes(pubkeyHex));
  } catch {
    return false;
  }
}

/** Signs a 32-byte message with BIP-340 (host side). */
export function schnorrSignHex(message: Uint8Array, secretKey: Uint8Array): string {
  return bytesToHex(secp256k1().schnorr.sign(message, secretKey));
}

/** The x-only pubkey (64 hex) of a 32-byte secret key. */
export function publicKeyHex(secretKey: Uint8Array): string {
  return bytesToHex(secp256k1().schnorr.getPublicKey(secretKey));
}

export { bytesToHex, hexToBytes };
