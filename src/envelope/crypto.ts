/**
 * The few primitives verification needs, over the same audited libraries nostr-tools uses
 * (`@noble/hashes`, `@noble/curves`) so the package carries one copy of each.
 *
 * Event checks do not call nostr-tools' `verifyEvent`: it caches its verdict on the event object
 * under a symbol, so an object that verified once and was then changed would still pass.
 */
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { nodeCrypto, secp256k1 } from '../shared/deferred.js';
import { type Pieces, canonicalPieces } from './canonical-json.js';

/**
 * Texts shorter than this are joined into batches of about this many UTF-16 units before they are
 * hashed (one native call per batch); longer ones are hashed on their own, never copied into a batch.
 */
const BATCH_UNITS = 64 * 1024;

/**
 * sha256 of the UTF-8 of `prefix` and `pieces` joined, without joining a large text: it is hashed
 * where it lies, by Node's native sha256 (far faster than `@noble/hashes` on large input). A text
 * shorter than one batch (every hash of an ordinary delivery) is joined and hashed by one
 * `crypto.hash` call, cheaper than a `createHash` object's three calls.
 * A lone surrogate is hashed as U+FFFD, as `TextEncoder` encodes it; the pieces of canonical JSON
 * never hold one (JSON.stringify escapes it), so no batch boundary can split a surrogate pair.
 */
function hashPieces(pieces: Pieces, prefix: string, output: 'hex'): string;
function hashPieces(pieces: Pieces, prefix: string, output: 'buffer'): Buffer;
function hashPieces(pieces: Pieces, prefix: string, output: 'hex' | 'buffer'): string | Buffer {
  const crypto = nodeCrypto();
  let hash: ReturnType<typeof crypto.createHash> | undefined;
  let batch: string[] = [prefix];
  let batched = prefix.length;
  // Node hashes a string as its UTF-8 by default.
  const flush = (): ReturnType<typeof crypto.createHash> => {
    const open = (hash ??= crypto.createHash('sha256'));
    open.update(batch.join(''));
    batch = [];
    batched = 0;
    return open;
  };
  const feed = (list: Pieces): void => {
    for (const piece of list) {
      if (typeof piece !== 'string') {
        feed(piece);
        continue;
      }
      if (piece.length >= BATCH_UNITS) {
        flush().update(piece);
        continue;
      }
      batch.push(piece);
      batched += piece.length;
      if (batched >= BATCH_UNITS) flush();
    }
  };
  feed(pieces);
  if (hash === undefined) {
    const text = batch.join('');
    return output === 'hex' ? crypto.hash('sha256', text) : crypto.hash('sha256', text, 'buffer');
  }
  return output === 'hex' ? flush().digest('hex') : flush().digest();
}

/** sha256 of the UTF-8 of `pieces` joined, after `prefix` (see {@link hashPieces}), as 32 bytes. */
export function sha256OfPieces(pieces: Pieces, prefix = ''): Uint8Array {
  const digest = hashPieces(pieces, prefix, 'buffer');
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
}

/** sha256 of the UTF-8 of `pieces` joined, as 64 lowercase hex digits. */
export function sha256HexOfPieces(pieces: Pieces): string {
  return hashPieces(pieces, '', 'hex');
}

/** sha256 of a string's UTF-8 bytes, as 64 lowercase hex digits. */
export function sha256Hex(text: string): string {
  return sha256HexOfPieces([text]);
}

/** The prefix of a domain-separated digest, utf8(domain) ‖ 0x00, as the text whose UTF-8 it is. */
export function domainPrefix(domain: string): string {
  return domain + '\u0000';
}

/** sha256(domain ‖ 0x00 ‖ utf8(text)): a digest that cannot be confused with one of another protocol. */
export function domainDigest(domain: string, text: string): Uint8Array {
  return sha256OfPieces([text], domainPrefix(domain));
}

/** The fields of a Nostr event that its NIP-01 id commits to. */
export interface NostrEventFields {
  readonly pubkey: string;
  readonly created_at: number;
  readonly kind: number;
  readonly tags: readonly (readonly string[])[];
  readonly content: string;
}

/**
 * The NIP-01 serialization of an event, `[0,pubkey,created_at,kind,tags,content]` as
 * `JSON.stringify` writes it (what nostr-tools' `serializeEvent` returns for a valid event), as
 * pieces. Tags and content are written as canonical JSON writes them (the same text for strings and
 * arrays of strings), so a long value is scanned rather than escaped and never copied.
 * `contentText`, when given, is the content already written as JSON text (pieces whose
 * concatenation is `JSON.stringify(content)`), so a large content is not scanned a second time.
 */
function nostrEventPieces(event: NostrEventFields, contentText?: Pieces): Pieces {
  return [
    '[0,',
    JSON.stringify(event.pubkey),
    ',',
    JSON.stringify(event.created_at),
    ',',
    JSON.stringify(event.kind),
    ',',
    canonicalPieces(event.tags, EVENT_TEXT_OPTIONS),
    ',',
    contentText ?? canonicalPieces(event.content, EVENT_TEXT_OPTIONS),
    ']',
  ];
}

/** Tags are arrays of strings inside an array; the schema-checked event has no deeper values. */
const EVENT_TEXT_OPTIONS = { maxDepth: 2, maxNodes: Number.MAX_SAFE_INTEGER } as const;

/** The NIP-01 id of an event: sha256 of its serialization (`nostrEventPieces`), as 64 hex. */
export function nostrEventId(event: NostrEventFields, contentText?: Pieces): string {
  return sha256HexOfPieces(nostrEventPieces(event, contentText));
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
