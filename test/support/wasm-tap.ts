/**
 * Fault injection at the platform boundary of the libsecp256k1 backend. `tapWasm` wraps
 * `WebAssembly.instantiate` for one test: the real nostr-wasm binary is instantiated as usual, the
 * test sees the runtime imports the loader hands it, and may swap the instance's verify export
 * (`u`, `secp256k1_schnorrsig_verify`) for one that throws, refuses, or counts its calls. Nothing
 * of src/ is replaced: the loader, its self-test, the verifier and the reader run as shipped.
 */
import { onTestFinished, vi } from 'vitest';

/** A runtime import of the binary, by its one-letter name (`a` abort … `f` memcpy). */
export type RuntimeImport = (...args: number[]) => unknown;
/** `secp256k1_schnorrsig_verify(ctx, sig64, msg, msglen, xonly)` → 1 when valid. */
export type VerifyExport = (ctx: number, signature: number, message: number, length: number, pubkey: number) => number;

interface Instance {
  readonly exports: Readonly<Record<string, unknown>>;
}
interface WebAssemblyApi {
  instantiate(binary: Uint8Array, imports: object): Promise<{ readonly instance: Instance }>;
}
const webAssembly = (globalThis as unknown as { readonly WebAssembly: WebAssemblyApi }).WebAssembly;

/** The load-time self-test calls verify twice (a good signature, then the same with a bit flipped). */
export const SELF_TEST_CALLS = 2;

/** What a tapped instantiation saw. */
export interface WasmTap {
  /** How often the binary was instantiated. */
  readonly loads: number;
  /** The runtime imports (`imports.a`) the loader handed the binary on each load. */
  readonly runtimes: readonly Readonly<Record<string, RuntimeImport>>[];
  /** The linear memory of each loaded instance. */
  readonly memories: readonly { readonly buffer: ArrayBuffer }[];
}

/** How a tap changes the instance: a verify export made from the real one, or a failed load. */
export interface TapOptions {
  readonly verify?: (real: VerifyExport) => VerifyExport;
  readonly fail?: Error;
}

/** Taps `WebAssembly.instantiate` until the current test finishes (call it inside a test). */
export function tapWasm(options: TapOptions = {}): WasmTap {
  const runtimes: Readonly<Record<string, RuntimeImport>>[] = [];
  const memories: { readonly buffer: ArrayBuffer }[] = [];
  const original = webAssembly.instantiate.bind(webAssembly);
  const spy = vi.spyOn(webAssembly, 'instantiate').mockImplementation(async (binary, imports) => {
    runtimes.push((imports as { readonly a: Readonly<Record<string, RuntimeImport>> }).a);
    if (options.fail !== undefined) throw options.fail;
    const { instance } = await original(binary, imports);
    memories.push(instance.exports.g as { readonly buffer: ArrayBuffer });
    const verify = options.verify;
    if (verify === undefined) return { instance };
    const exports = { ...instance.exports, u: verify(instance.exports.u as VerifyExport) };
    return { instance: { exports } };
  });
  onTestFinished(() => {
    spy.mockRestore();
  });
  return {
    get loads() {
      return spy.mock.calls.length;
    },
    runtimes,
    memories,
  };
}

/** A verify export that answers as the real one for the self-test, then as `after` says. */
export function afterSelfTest(after: (real: VerifyExport) => VerifyExport): (real: VerifyExport) => VerifyExport {
  return (real) => {
    let calls = 0;
    const then = after(real);
    return (...args) => (++calls <= SELF_TEST_CALLS ? real(...args) : then(...args));
  };
}
