/**
 * The options of a read, and their resolution: checked and filled in by one function, which the
 * free functions call per read and `createBuzzReader` calls once.
 */
import type { Trust } from '../context.js';
import { BuzzMetaError } from '../errors.js';
import { pinnedKey } from '../envelope/verify.js';
import { type BuzzLimits, resolveLimits } from '../limits.js';

/**
 * Options of {@link readBuzzContext} and {@link parseBuzzContext}.
 *
 * @example
 * ```ts
 * import { readBuzzContext, type ReadBuzzOptions } from 'buzz-meta'
 *
 * // Signed envelopes only, no reading of prompt text, smaller batches than the default.
 * const options: ReadBuzzOptions = { agentPubkey, minTrust: 'verified', scrape: false, limits: { maxEvents: 50 } }
 * const read = readBuzzContext(params, options)
 * ```
 * @group Reading
 */
export interface ReadBuzzOptions {
  /**
   * The managed agent's own pubkey (64 hex digits or an npub), pinned from configuration — never
   * taken from the request. When set, a v1 envelope must verify or the read fails.
   */
  readonly agentPubkey?: string;
  /**
   * The weakest trust accepted (default `'scraped'`: anything, with or without `agentPubkey`). A
   * pinned key makes a v1 envelope verify or fail; it does not refuse unsigned sources (drafts,
   * prompt text), which most hosts still send. To authorize on a context, pass `'verified'`, which
   * needs `agentPubkey` (refused with `invalid_option` without it: nothing could ever verify).
   */
  readonly minTrust?: Trust;
  /**
   * Scrape prompt text when `_meta.buzz` is absent (default `true`). A present `_meta.buzz` is
   * always read, never replaced by text; a scraped context is `trust: 'scraped'`.
   */
  readonly scrape?: boolean;
  /** Size bounds; unspecified ones keep their defaults (`DEFAULT_LIMITS`). */
  readonly limits?: Partial<BuzzLimits>;
}

/** {@link ReadBuzzOptions} checked, with every default filled in. */
export interface ResolvedReadOptions {
  /** The pinned key as 64 lowercase hex, or `undefined` when none is pinned. */
  readonly agentPubkey: string | undefined;
  /** The weakest trust accepted. */
  readonly minTrust: Trust;
  /** Whether prompt text may be scraped when `_meta.buzz` is absent. */
  readonly scrape: boolean;
  /** Every bound, defaults filled in. */
  readonly limits: BuzzLimits;
}

/** How strong each trust is, for comparing a context's trust with `minTrust`. */
export const TRUST_RANK: Readonly<Record<Trust, number>> = { scraped: 0, asserted: 1, verified: 2 };

/**
 * Checks `options` and fills in the defaults. Throws a {@link BuzzMetaError} (`invalid_option`, or
 * `invalid_pubkey`/`invalid_npub` for a malformed key) on the first bad option, in the order the fields
 * are listed, and refuses a set of options that could accept no prompt (`minTrust: 'verified'` without
 * `agentPubkey`).
 */
export function resolveReadOptions(options: ReadBuzzOptions): ResolvedReadOptions {
  const given = options.agentPubkey;
  const agentPubkey = given === undefined ? undefined : pinnedKey(given);
  // Deliberately 'scraped' even with a pinned key (README, trust table): the key decides how an
  // envelope is read, minTrust decides which sources are accepted.
  const minTrust = options.minTrust ?? 'scraped';
  if (!Object.hasOwn(TRUST_RANK, minTrust)) {
    throw BuzzMetaError.of('invalid_option', '/minTrust', 'minTrust must be "verified", "asserted" or "scraped"');
  }
  // The one set of options that can accept nothing: only a pinned key makes anything verified.
  if (minTrust === 'verified' && agentPubkey === undefined) {
    throw BuzzMetaError.of(
      'invalid_option',
      '/agentPubkey',
      'minTrust "verified" needs agentPubkey: without the agent’s own npub nothing verifies, so every prompt would be refused',
    );
  }
  return { agentPubkey, minTrust, scrape: options.scrape !== false, limits: resolveLimits(options.limits) };
}
