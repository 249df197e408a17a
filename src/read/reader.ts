/**
 * A reader set up once per agent: options checked up front, the fastest signature backend
 * available, and a bounded cache of signatures that already verified, so a redelivered event
 * (Buzz delivers at least once) costs a map lookup instead of a Schnorr verification.
 */
import type { BuzzContext } from '../context.js';
import { BuzzMetaError } from '../errors.js';
import { jsVerifier, loadWasmVerifier, type SignatureVerifier, withVerdictCache } from '../envelope/signatures.js';
import { type ReadBuzzOptions, resolveReadOptions } from './options.js';
import { type BuzzReadResult, type ContextFor, readResolved } from './read.js';

/**
 * Options of {@link createBuzzReader}: those of `readBuzzContext`, plus the crypto set-up.
 *
 * @example
 * ```ts
 * import { createBuzzReader, type BuzzReaderOptions } from 'buzz-meta'
 *
 * const options: BuzzReaderOptions = { agentPubkey, minTrust: 'verified', backend: 'auto' }
 * const reader = await createBuzzReader(options) // rejects at once on a key or option set that accepts nothing
 * ```
 * @group Reading
 */
export interface BuzzReaderOptions extends ReadBuzzOptions {
  /**
   * Signature backend: `'auto'` (default) loads libsecp256k1 (the wasm build nostr-wasm ships) for
   * the attestation and every event, and falls back to pure JS if it cannot load; `'wasm'` fails
   * instead of falling back; `'js'` never loads wasm. A check the wasm backend cannot complete
   * (it throws) runs again in pure JS: a backend failure is never a verdict.
   */
  readonly backend?: 'auto' | 'wasm' | 'js';
  /** Verified signatures remembered (default 10 000; 0 turns the cache off). */
  readonly cacheSize?: number;
}

/**
 * A configured reader: the same `read`/`parse` as the free functions, without per-call set-up.
 *
 * @example
 * ```ts
 * import { createBuzzReader, type BuzzReader } from 'buzz-meta'
 *
 * const reader: BuzzReader = await createBuzzReader({ agentPubkey }) // once, at start-up
 * const read = reader.read(params) // per prompt, as readBuzzContext with the reader's options
 * console.error(reader.backend) // 'wasm' where the WebAssembly verifier loaded, else 'js'
 * ```
 * @group Reading
 */
export interface BuzzReader<C extends BuzzContext = BuzzContext> {
  /** The signature backend in use. */
  readonly backend: 'js' | 'wasm';
  /** The pinned agent key as 64 lowercase hex; absent without `agentPubkey`. */
  readonly agentPubkey?: string;
  /** Like `readBuzzContext`: never throws. */
  read(params: unknown): BuzzReadResult<C>;
  /** Like `parseBuzzContext`: throws a {@link BuzzMetaError}. */
  parse(params: unknown): C;
}

const DEFAULT_CACHE_SIZE = 10_000;

/**
 * Creates a reader for one agent. Rejects (with a `BuzzMetaError`) on bad options, so a
 * misconfigured agent fails at start-up rather than on its first prompt.
 *
 * @example
 * ```ts
 * const reader = await createBuzzReader({ agentPubkey: process.env.BUZZ_AGENT_NPUB ?? '', minTrust: 'verified' })
 * const read = reader.read(params) // read.context is a BuzzVerifiedContext when ok
 * ```
 * @group Reading
 */
export async function createBuzzReader<const O extends BuzzReaderOptions = BuzzReaderOptions>(
  options?: O,
): Promise<BuzzReader<ContextFor<O>>> {
  const given: BuzzReaderOptions = options ?? {};
  const cacheSize = given.cacheSize ?? DEFAULT_CACHE_SIZE;
  if (!Number.isSafeInteger(cacheSize) || cacheSize < 0) {
    throw BuzzMetaError.of('invalid_option', '/cacheSize', 'cacheSize must be a non-negative integer');
  }
  // Widened to string: JavaScript callers can pass anything, and deserve a clear error.
  const backend: string = given.backend ?? 'auto';
  if (backend !== 'auto' && backend !== 'wasm' && backend !== 'js') {
    throw BuzzMetaError.of('invalid_option', '/backend', 'backend must be "auto", "wasm" or "js"');
  }
  const readOptions = resolveReadOptions(given);
  const base = await chooseVerifier(backend);
  const verifier = cacheSize === 0 ? base : withVerdictCache(base, cacheSize);
  return {
    backend: verifier.backend,
    ...(readOptions.agentPubkey === undefined ? {} : { agentPubkey: readOptions.agentPubkey }),
    read: (params) => readResolved(params, readOptions, verifier) as BuzzReadResult<ContextFor<O>>,
    parse: (params) => {
      const result = readResolved(params, readOptions, verifier);
      if (result.ok) return result.context as ContextFor<O>;
      throw result.error;
    },
  };
}

/** The backend asked for: pure JS, or libsecp256k1 with pure JS as the fallback under `'auto'`. */
async function chooseVerifier(backend: 'auto' | 'wasm' | 'js'): Promise<SignatureVerifier> {
  if (backend === 'js') return jsVerifier;
  try {
    return await loadWasmVerifier();
  } catch {
    if (backend === 'wasm') {
      throw BuzzMetaError.of('invalid_option', '/backend', 'the wasm backend (nostr-wasm) could not be loaded');
    }
    return jsVerifier;
  }
}
