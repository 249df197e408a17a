/**
 * A raw BIP-340 verify over any 32-byte message with libsecp256k1, from the wasm build nostr-wasm
 * already ships (a dependency of nostr-tools, so no second secp256k1 library is installed).
 *
 * nostr-wasm's own API only verifies whole events, and does so by serializing and hashing the
 * event again inside a fixed wasm heap: it cannot check the attestation digest at all, and it
 * throws on events above ~945 KB. Its binary exports libsecp256k1's `xonly_pubkey_parse` and
 * `schnorrsig_verify` directly; this module instantiates that binary with its own small runtime
 * and calls them on fixed 32/64-byte buffers, so the heap never grows with the input.
 *
 * The export names are those of the exact nostr-wasm version package.json pins. A load-time
 * self-test (one known-good signature must verify, the same with one bit flipped must not) turns
 * any drift into a load failure, and the reader then falls back to pure JS.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** BIP-340 verify of a 64-byte signature over a 32-byte message with a 32-byte x-only pubkey. May throw. */
export type RawSchnorrVerify = (signature: Uint8Array, message: Uint8Array, pubkey: Uint8Array) => boolean;

/** The libsecp256k1 exports used here, under the names nostr-wasm 0.1.0's binary gives them. */
interface Exports {
  /** Linear memory. */
  readonly g: { readonly buffer: ArrayBuffer };
  /** Runtime initialisation. */
  readonly h: () => void;
  /** malloc(size) → pointer. */
  readonly i: (size: number) => number;
  /** secp256k1_context_create(flags) → context pointer. */
  readonly o: (flags: number) => number;
  /** secp256k1_xonly_pubkey_parse(ctx, out, in32) → 1 on success. */
  readonly p: (ctx: number, out: number, input: number) => number;
  /** secp256k1_schnorrsig_verify(ctx, sig64, msg, msglen, xonly) → 1 when valid. */
  readonly u: (ctx: number, sig: number, msg: number, length: number, pubkey: number) => number;
}

/**
 * The part of the WebAssembly JS API used here. Node has it; this project compiles without the DOM
 * lib, where its types live.
 */
interface WebAssemblyApi {
  instantiate(binary: Uint8Array, imports: object): Promise<{ readonly instance: { readonly exports: object } }>;
}
const webAssembly = (globalThis as unknown as { readonly WebAssembly: WebAssemblyApi }).WebAssembly;

/** SECP256K1_CONTEXT_VERIFY | SECP256K1_CONTEXT_SIGN, as nostr-wasm creates its context. */
const CONTEXT_FLAGS = 769;

/** A signature made with `@noble/curves`, for the self-test. */
const SELF_TEST_PUBKEY = '8f53f2bd95ff286d62d3be1935579df5991b41765b45703f1bb311134277d458';
const SELF_TEST_MESSAGE = '79d7a3f95d6782a9cd07d78f38e79fe946dc83912f4647874db0df662bb8a75b';
const SELF_TEST_SIGNATURE =
  'd3fb5c34b8076fa2a816af02d92f4297269f03ebc42f615203e8eb61de7da55040b77e3538932591cef37d066d11dde78e5bb8b38f6d2191d2f8844be981c039';

/** Where nostr-wasm keeps its libsecp256k1 binary, next to its entry point (`dist/main.js`). */
function wasmFile(): string {
  const entry = createRequire(import.meta.url).resolve('nostr-wasm');
  return path.join(path.dirname(entry), '..', 'public', 'out', 'secp256k1.wasm');
}

/**
 * The few imports the binary's Emscripten runtime calls, over the instance's heap (`heap()`):
 * `a` abort, `b` write, `c` fd_seek, `d` resize, `e` fd_close, `f` memcpy. Only `f` is called
 * in normal operation; an abort or a request to grow the heap throws, so the check has no verdict
 * and the caller re-runs it in pure JS.
 */
function runtimeImports(heap: () => Uint8Array): { readonly a: Record<string, (...args: number[]) => unknown> } {
  const thrower = (what: string) => (): never => {
    throw new Error(`libsecp256k1: ${what}`);
  };
  return {
    a: {
      a: thrower('abort'),
      b: () => 0, // write(fd, …): libsecp256k1 only writes on an illegal argument; nothing to log
      c: () => 70, // fd_seek: unsupported
      d: thrower('out of memory'), // resize: the heap never grows here
      e: () => 52, // fd_close: unsupported
      f: (to: number, from: number, size: number) => heap().copyWithin(to, from, from + size),
    },
  };
}

/**
 * Throws unless `verify` accepts a known-good signature and refuses the same signature with one bit
 * flipped: a binary whose exports moved (another nostr-wasm build) fails here, at load time.
 */
function selfTest(verify: RawSchnorrVerify): void {
  const pubkey = Buffer.from(SELF_TEST_PUBKEY, 'hex');
  const message = Buffer.from(SELF_TEST_MESSAGE, 'hex');
  const signature = Buffer.from(SELF_TEST_SIGNATURE, 'hex');
  const flipped = Buffer.from(signature);
  flipped.writeUInt8(signature.readUInt8(63) ^ 1, 63);
  if (!verify(signature, message, pubkey) || verify(flipped, message, pubkey)) {
    throw new Error('libsecp256k1: self-test failed (not the nostr-wasm build this package pins)');
  }
}

/**
 * Instantiates libsecp256k1 and returns its raw BIP-340 verify. Rejects when the binary cannot be
 * found or instantiated, or fails the self-test.
 */
export async function loadLibsecp256k1(): Promise<RawSchnorrVerify> {
  const binary = new Uint8Array(await readFile(wasmFile()));
  let heap = new Uint8Array(0);
  const imports = runtimeImports(() => heap);
  const { instance } = await webAssembly.instantiate(binary, imports);
  const wasm = instance.exports as unknown as Exports;
  heap = new Uint8Array(wasm.g.buffer);
  wasm.h();
  const context = wasm.o(CONTEXT_FLAGS);
  const signatureAt = wasm.i(64);
  const messageAt = wasm.i(32);
  const pubkeyAt = wasm.i(32);
  const parsedKeyAt = wasm.i(64);

  const verify: RawSchnorrVerify = (signature, message, pubkey) => {
    if (signature.length !== 64 || message.length !== 32 || pubkey.length !== 32) return false;
    // A grown memory detaches the old view; nothing here grows it, but a stale view would be silent.
    if (heap.buffer !== wasm.g.buffer) heap = new Uint8Array(wasm.g.buffer);
    heap.set(signature, signatureAt);
    heap.set(message, messageAt);
    heap.set(pubkey, pubkeyAt);
    if (wasm.p(context, parsedKeyAt, pubkeyAt) !== 1) return false;
    return wasm.u(context, signatureAt, messageAt, 32, parsedKeyAt) === 1;
  };

  selfTest(verify);
  return verify;
}
