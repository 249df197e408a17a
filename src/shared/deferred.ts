/**
 * Dependencies loaded on first use rather than at import, so `import 'buzz-meta'` costs little
 * next to the ACP SDK it sits beside (docs/performance.md). Each was a measurable part of a cold
 * import while most agents never call it, or call it only on their first prompt: secp256k1 (a
 * reader on the wasm backend never does; only hosts sign), `node:crypto`,
 * `@noble/hashes/sha2` and nip19's bech32. The callers are synchronous, so packages load through
 * `require` of ES modules (Node ≥ 20.19 and ≥ 22.12, the `engines` range), which shares the module
 * instances `import` loads, and built-ins through `process.getBuiltinModule`.
 */
import { createRequire } from 'node:module';
import type * as NodeCrypto from 'node:crypto';
import type * as Sha2 from '@noble/hashes/sha2.js';
import type * as Secp256k1 from '@noble/curves/secp256k1.js';
import type * as Nip19 from 'nostr-tools/nip19';

const load = createRequire(import.meta.url);

let secp256k1Module: typeof Secp256k1 | undefined;
let sha2Module: typeof Sha2 | undefined;
let nip19Module: typeof Nip19 | undefined;
let cryptoModule: typeof NodeCrypto | undefined;

/** `@noble/curves/secp256k1.js`, loaded on the first call. */
export function secp256k1(): typeof Secp256k1 {
  return (secp256k1Module ??= load('@noble/curves/secp256k1.js') as typeof Secp256k1);
}

/** `@noble/hashes/sha2.js`, loaded on the first call. */
export function sha2(): typeof Sha2 {
  return (sha2Module ??= load('@noble/hashes/sha2.js') as typeof Sha2);
}

/** `nostr-tools/nip19`, loaded on the first call. */
export function nip19(): typeof Nip19 {
  return (nip19Module ??= load('nostr-tools/nip19') as typeof Nip19);
}

/** `node:crypto`, loaded on the first call. */
export function nodeCrypto(): typeof NodeCrypto {
  return (cryptoModule ??= process.getBuiltinModule('node:crypto'));
}
