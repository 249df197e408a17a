/**
 * Dependencies loaded on first use rather than at import. secp256k1 (`@noble/curves`, and
 * `nostr-tools/pure`, which imports it) was a third of buzz-meta's cold import, yet a reader
 * with the wasm backend never calls it and only hosts sign. The callers are synchronous, so this
 * uses `require` of ES modules (Node ≥ 20.19 and ≥ 22.12, the `engines` range), which shares the
 * module instances `import` would load.
 */
import { createRequire } from 'node:module';
import type * as Secp256k1 from '@noble/curves/secp256k1.js';
import type * as NostrPure from 'nostr-tools/pure';

const load = createRequire(import.meta.url);

let secp256k1Module: typeof Secp256k1 | undefined;
let nostrPureModule: typeof NostrPure | undefined;

/** `@noble/curves/secp256k1.js`, loaded on the first call. */
export function secp256k1(): typeof Secp256k1 {
  return (secp256k1Module ??= load('@noble/curves/secp256k1.js') as typeof Secp256k1);
}

/** `nostr-tools/pure`, loaded on the first call. */
export function nostrPure(): typeof NostrPure {
  return (nostrPureModule ??= load('nostr-tools/pure') as typeof NostrPure);
}
