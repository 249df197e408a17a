/**
 * Who checks signatures: pure JS (`@noble/curves`, always available, synchronous) or libsecp256k1
 * compiled to wasm (nostr-wasm's binary, loaded once, several times faster), optionally behind a
 * bounded cache of verdicts that already verified, so a redelivered event costs a map lookup.
 *
 * Only positive verdicts are cached, keyed by the exact (pubkey, message, signature) triple:
 * a cache hit is the same mathematical fact as the check it replaces.
 */
import { bytesToHex, hexToBytes, schnorrVerifyHex } from './crypto.js';
import { loadLibsecp256k1, type RawSchnorrVerify } from './libsecp256k1.js';
import type { NostrEventFields } from './crypto.js';

/** A signed Nostr event as the verifier sees it (already schema-checked). */
interface SignedEventFields extends NostrEventFields {
  /** The event id the event claims (checked against the NIP-01 hash separately). */
  readonly id: string;
  /** BIP-340 signature over the id, 128 hex. */
  readonly sig: string;
}

/** Verifies the two kinds of signature an envelope carries. Never throws. */
export interface SignatureVerifier {
  /** Which implementation runs. */
  readonly backend: 'js' | 'wasm';
  /** BIP-340 verify of `signatureHex` over a 32-byte digest with x-only `pubkeyHex`. */
  verifyDigest(signatureHex: string, digest: Uint8Array, pubkeyHex: string): boolean;
  /** BIP-340 verify of an event's `sig` over its `id` with its `pubkey` (the id is checked elsewhere). */
  verifyEvent(event: SignedEventFields): boolean;
}

/** The synchronous pure-JS verifier `readBuzzContext` uses. */
export const jsVerifier: SignatureVerifier = {
  backend: 'js',
  verifyDigest: (signatureHex, digest, pubkeyHex) => schnorrVerifyHex(signatureHex, digest, pubkeyHex),
  verifyEvent: (event) => schnorrVerifyHex(event.sig, hexToBytes(event.id), event.pubkey),
};

/**
 * A verifier over libsecp256k1's raw BIP-340 verify. Event signatures are checked over the event
 * id directly: the id is checked against the NIP-01 hash of the event before any signature runs,
 * so hashing the event again (as nostr-wasm's `verifyEvent` does, inside a heap that cannot hold
 * a large event) would add nothing. A backend that throws has given no verdict: that one check
 * runs again in pure JS.
 */
function libsecp256k1Verifier(raw: RawSchnorrVerify): SignatureVerifier {
  const verify = (signatureHex: string, message: Uint8Array, pubkeyHex: string): boolean => {
    try {
      return raw(hexToBytes(signatureHex), message, hexToBytes(pubkeyHex));
    } catch {
      return schnorrVerifyHex(signatureHex, message, pubkeyHex);
    }
  };
  return {
    backend: 'wasm',
    verifyDigest: (signatureHex, digest, pubkeyHex) => verify(signatureHex, digest, pubkeyHex),
    verifyEvent: (event) => verify(event.sig, hexToBytes(event.id), event.pubkey),
  };
}

/** Loads libsecp256k1 (the wasm build nostr-wasm ships) for both kinds of signature. */
export async function loadWasmVerifier(): Promise<SignatureVerifier> {
  return libsecp256k1Verifier(await loadLibsecp256k1());
}

/** Wraps a verifier with an LRU cache of at most `maxEntries` positive verdicts. */
export function withVerdictCache(base: SignatureVerifier, maxEntries: number): SignatureVerifier {
  // A Set iterates in insertion order, so its first key is the least recently used one.
  const verified = new Set<string>();
  const remember = (key: string): void => {
    verified.add(key);
    if (verified.size <= maxEntries) return;
    for (const oldest of verified) {
      verified.delete(oldest);
      break;
    }
  };
  const seen = (key: string): boolean => {
    if (!verified.has(key)) return false;
    // Refresh recency: delete and re-add moves the key to the newest end.
    verified.delete(key);
    verified.add(key);
    return true;
  };
  return {
    backend: base.backend,
    verifyDigest(signatureHex, digest, pubkeyHex) {
      // Keyed by the very bytes verified, not by a hex the caller claims they are.
      const key = `d:${pubkeyHex}:${bytesToHex(digest)}:${signatureHex}`;
      if (seen(key)) return true;
      const ok = base.verifyDigest(signatureHex, digest, pubkeyHex);
      if (ok) remember(key);
      return ok;
    },
    verifyEvent(event) {
      // The id is the event's NIP-01 hash (checked before this runs), so (pubkey, id, sig) fixes
      // everything the signature covers.
      const key = `e:${event.pubkey}:${event.id}:${event.sig}`;
      if (seen(key)) return true;
      const ok = base.verifyEvent(event);
      if (ok) remember(key);
      return ok;
    },
  };
}
