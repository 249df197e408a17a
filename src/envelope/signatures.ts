/**
 * Who checks signatures: pure JS (`@noble/curves`, always available, synchronous) or libsecp256k1
 * compiled to wasm (nostr-wasm, loaded once, ~5× faster for events), optionally behind a bounded
 * cache of verdicts that already verified, so a redelivered event costs a map lookup.
 *
 * Only positive verdicts are cached, keyed by the exact (pubkey, message, signature) triple:
 * a cache hit is the same mathematical fact as the check it replaces.
 */
import { hexToBytes, schnorrVerifyHex } from './crypto.js';
import { copyEvent } from './nostr-event.js';
import type { NostrEventFields } from './crypto.js';

/** A signed Nostr event as the verifier sees it (already schema-checked). */
export interface SignedEventFields extends NostrEventFields {
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
  verifyDigest(signatureHex: string, digest: Uint8Array, digestHex: string, pubkeyHex: string): boolean;
  /** BIP-340 verify of an event's `sig` over its `id` with its `pubkey` (the id is checked elsewhere). */
  verifyEvent(event: SignedEventFields): boolean;
}

/** The synchronous pure-JS verifier `readBuzzContext` uses. */
export const jsVerifier: SignatureVerifier = {
  backend: 'js',
  verifyDigest: (signatureHex, digest, _digestHex, pubkeyHex) => schnorrVerifyHex(signatureHex, digest, pubkeyHex),
  verifyEvent: (event) => schnorrVerifyHex(event.sig, hexToBytes(event.id), event.pubkey),
};

/** The one nostr-wasm call used here (its `Nostr` interface, abridged). */
interface NostrWasm {
  /** Throws unless the event's id and signature are valid. */
  verifyEvent(event: SignedEventFields): void;
}
const NOSTR_WASM = 'nostr-wasm';

/**
 * Loads libsecp256k1 (nostr-wasm) for event signatures. nostr-wasm exposes no raw digest verify,
 * so attestation digests stay on the pure-JS path.
 */
export async function loadWasmVerifier(): Promise<SignatureVerifier> {
  // A non-literal specifier keeps TypeScript from loading nostr-wasm's .d.ts, which needs DOM
  // types (`/// <reference types="web" />`, `BufferSource`) this Node project does not have.
  const { initNostrWasm } = (await import(NOSTR_WASM)) as { initNostrWasm: () => Promise<NostrWasm> };
  const wasm = await initNostrWasm();
  return {
    backend: 'wasm',
    verifyDigest: (signatureHex, digest, digestHex, pubkeyHex) =>
      jsVerifier.verifyDigest(signatureHex, digest, digestHex, pubkeyHex),
    verifyEvent: (event) => {
      // nostr-wasm recomputes the id itself; give it a fresh plain object it may not keep.
      const copy = copyEvent(event);
      try {
        wasm.verifyEvent(copy);
        return true;
      } catch {
        return false;
      }
    },
  };
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
    verifyDigest(signatureHex, digest, digestHex, pubkeyHex) {
      const key = `d:${pubkeyHex}:${digestHex}:${signatureHex}`;
      if (seen(key)) return true;
      const ok = base.verifyDigest(signatureHex, digest, digestHex, pubkeyHex);
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
