/**
 * The entry point: picks the source of a `session/prompt`'s Buzz facts and reads it.
 *
 * `_meta.buzz` present → it is read (v1 envelope when it has a `version`, else the draft shape),
 * and any problem with it is an error. Only when `_meta.buzz` is absent may prompt text be
 * scraped: falling back on a broken `_meta.buzz` would let anyone who can break the metadata
 * downgrade the agent to forgeable text.
 */
import type {
  BuzzContext,
  BuzzDraftContext,
  BuzzEnvelopeContext,
  BuzzReadResult,
  BuzzVerifiedContext,
} from '../context.js';
import { BuzzMetaError, asBuzzError } from '../errors.js';
import { readDraft } from '../draft/read-draft.js';
import { envelopeToContext } from '../envelope/to-context.js';
import { jsVerifier, type SignatureVerifier } from '../envelope/signatures.js';
import { checkEnvelope } from '../envelope/verify.js';
import type { BuzzLimits } from '../limits.js';
import { scrapeWithLimits } from '../legacy/scrape.js';
import { type ReadBuzzOptions, type ResolvedReadOptions, TRUST_RANK, resolveReadOptions } from './options.js';

/** The never-throwing result of {@link readBuzzContext} (defined with the context types). */
export type { BuzzReadResult };

/**
 * The context type a given `minTrust` guarantees.
 *
 * @example
 * ```ts
 * import { readBuzzContext, type ContextFor } from 'buzz-meta'
 *
 * const options = { agentPubkey, minTrust: 'verified' } as const
 * const read = readBuzzContext(params, options)
 * const verified: ContextFor<typeof options> | undefined = read.ok ? read.context : undefined // BuzzVerifiedContext
 * ```
 * @group Reading
 */
export type ContextFor<O> = O extends { readonly minTrust: 'verified' }
  ? BuzzVerifiedContext
  : O extends { readonly minTrust: 'asserted' }
    ? BuzzEnvelopeContext | BuzzDraftContext
    : BuzzContext;

/**
 * Reads the Buzz context of a `session/prompt` request. Never throws.
 *
 * @example
 * ```ts
 * const read = readBuzzContext(params, { agentPubkey: process.env.BUZZ_AGENT_NPUB ?? '', minTrust: 'verified' })
 * if (!read.ok) return refuse(read.error.code)
 * memory.partition(senderKey(read.context))
 * ```
 * @group Reading
 */
export function readBuzzContext<const O extends ReadBuzzOptions = ReadBuzzOptions>(
  params: unknown,
  options?: O,
): BuzzReadResult<ContextFor<O>> {
  return readWith(params, options ?? {}, jsVerifier) as BuzzReadResult<ContextFor<O>>;
}

/** {@link readBuzzContext} with a chosen signature verifier: resolves the options, then reads. */
function readWith(params: unknown, options: ReadBuzzOptions, verifier: SignatureVerifier): BuzzReadResult {
  let resolved: ResolvedReadOptions;
  try {
    resolved = resolveReadOptions(options);
  } catch (error) {
    return { ok: false, error: asBuzzError(error) };
  }
  return readResolved(params, resolved, verifier);
}

/** A read with options already resolved (the reader resolves them once; `readBuzzContext` per call). */
export function readResolved(
  params: unknown,
  options: ResolvedReadOptions,
  verifier: SignatureVerifier,
): BuzzReadResult {
  try {
    return { ok: true, context: read(params, options, verifier) };
  } catch (error) {
    return { ok: false, error: asBuzzError(error) };
  }
}

/**
 * Reads the Buzz context of a `session/prompt` request, or throws a {@link BuzzMetaError}.
 *
 * @example
 * ```ts
 * const ctx = parseBuzzContext(params, { agentPubkey })
 * ctx.trust // 'verified' | 'asserted' | 'scraped'
 * ```
 * @group Reading
 */
export function parseBuzzContext<const O extends ReadBuzzOptions = ReadBuzzOptions>(
  params: unknown,
  options?: O,
): ContextFor<O> {
  const result = readBuzzContext(params, options);
  if (result.ok) return result.context;
  throw result.error;
}

function read(params: unknown, options: ResolvedReadOptions, verifier: SignatureVerifier): BuzzContext {
  const { agentPubkey, minTrust, limits } = options;
  const buzz = locateBuzz(params);
  if (buzz === undefined) {
    if (!options.scrape) {
      throw BuzzMetaError.of(
        'no_buzz_context',
        '/_meta/buzz',
        'the request has no _meta.buzz, and scraping prompt text is turned off',
      );
    }
    if (minTrust !== 'scraped') {
      throw BuzzMetaError.of(
        'no_buzz_context',
        '/_meta/buzz',
        `the request has no _meta.buzz, and prompt text could only be scraped (${minTrust} was required)`,
      );
    }
    return scrapeParams(params as object, limits);
  }
  const context = readStructured(buzz.value, agentPubkey, limits, verifier);
  if (TRUST_RANK[context.trust] < TRUST_RANK[minTrust]) {
    throw BuzzMetaError.of(
      'trust_too_low',
      '/_meta/buzz',
      // Only 'verified' can be missed here (a structured context is at least 'asserted'), and only with a
      // pinned key (options.ts refuses 'verified' without one): the source was unsigned.
      `this context is ${context.trust}, and ${minTrust} was required`,
    );
  }
  return context;
}

/** Finds `params._meta.buzz`, reading own properties only. `undefined` when absent. */
function locateBuzz(params: unknown): { value: unknown } | undefined {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw BuzzMetaError.of('invalid_params', '', 'params must be a session/prompt params object');
  }
  const meta: unknown = Object.hasOwn(params, '_meta') ? (params as { _meta: unknown })._meta : undefined;
  if (meta === undefined || meta === null) return undefined;
  if (typeof meta !== 'object' || Array.isArray(meta)) {
    throw BuzzMetaError.of('invalid_meta', '/_meta', '_meta must be an object');
  }
  const buzz: unknown = Object.hasOwn(meta, 'buzz') ? (meta as { buzz: unknown }).buzz : undefined;
  return buzz === undefined ? undefined : { value: buzz };
}

/** The scraped context of the prompt text, read from own properties; any failure is thrown. */
function scrapeParams(params: object, limits: BuzzLimits): BuzzContext {
  const prompt: unknown = Object.hasOwn(params, 'prompt') ? (params as { prompt: unknown }).prompt : undefined;
  const scraped = scrapeWithLimits(prompt, limits);
  if (scraped.ok) return scraped.context;
  if (scraped.error.code === 'no_buzz_context') {
    throw BuzzMetaError.of(
      'no_buzz_context',
      '/_meta/buzz',
      'the request has no _meta.buzz, and its prompt text has no Buzz event block',
    );
  }
  throw scraped.error;
}

/** Keys only a v1 envelope has: without `version`, such an object is a broken envelope, not a draft. */
function looksLikeEnvelope(buzz: object): boolean {
  return (
    Object.hasOwn(buzz, 'attestation') ||
    Object.hasOwn(buzz, 'deliveryId') ||
    (Object.hasOwn(buzz, 'channel') && !Object.hasOwn(buzz, 'channelId'))
  );
}

function readStructured(
  buzz: unknown,
  agentPubkey: string | undefined,
  limits: BuzzLimits,
  verifier: SignatureVerifier,
): BuzzContext {
  if (typeof buzz !== 'object' || buzz === null || Array.isArray(buzz)) {
    throw BuzzMetaError.of('invalid_meta', '/_meta/buzz', '_meta.buzz must be an object');
  }
  if (Object.hasOwn(buzz, 'version')) {
    const version: unknown = (buzz as { version: unknown }).version;
    if (version !== 1) {
      throw BuzzMetaError.of(
        'unsupported_version',
        '/_meta/buzz/version',
        'only version 1 of _meta.buzz is understood',
      );
    }
    const checked = checkEnvelope(buzz, agentPubkey, limits, verifier);
    if (!checked.ok) throw checked.error;
    return envelopeToContext(checked.value.envelope, buzz, checked.value.keyed);
  }
  if (looksLikeEnvelope(buzz)) {
    throw BuzzMetaError.of(
      'invalid_envelope',
      '/_meta/buzz/version',
      'this looks like a v1 envelope (it has attestation, deliveryId or channel) but has no "version": 1, which every v1 envelope carries',
    );
  }
  const draft = readDraft(buzz, limits);
  if (!draft.ok) throw draft.error;
  return draft.value;
}
