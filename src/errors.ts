/**
 * The one error type of buzz-meta. Every failure carries a stable string `code` (switch on it),
 * a sentence a person can act on, and the JSON-pointer `path` of the offending field.
 * Messages never echo received values: they may be hostile or large.
 */

/**
 * Every error code buzz-meta produces. Codes are part of the public contract: added, never renamed.
 *
 * @example
 * ```ts
 * import { BUZZ_ERROR_CODES, type BuzzErrorCode } from 'buzz-meta'
 *
 * const codes: readonly string[] = BUZZ_ERROR_CODES
 * const isBuzzErrorCode = (value: string): value is BuzzErrorCode => codes.includes(value)
 * ```
 * @group Reading
 */
export const BUZZ_ERROR_CODES = [
  // Input shape
  'invalid_params',
  'invalid_meta',
  'no_buzz_context',
  'unsupported_version',
  'invalid_envelope',
  'invalid_draft',
  'limit_exceeded',
  'canonical_json',
  // v1 verification
  'signer_mismatch',
  'agent_mismatch',
  'payload_hash_mismatch',
  'attestation_signature_invalid',
  'delivery_id_mismatch',
  'membership_revision_mismatch',
  'event_id_mismatch',
  'event_signature_invalid',
  'event_channel_mismatch',
  'reply_mismatch',
  // Policy and helpers
  'trust_too_low',
  'invalid_option',
  'invalid_pubkey',
  'invalid_npub',
  'no_sender',
  'internal',
  // Dedup
  'dedup_store_unavailable',
  'dedup_events_held',
  // Prompt text (legacy scraper)
  'invalid_prompt_text',
  'ambiguous_prompt_text',
] as const;

/**
 * A stable error code; see {@link BUZZ_ERROR_CODES}.
 *
 * @example
 * ```ts
 * import type { BuzzErrorCode } from 'buzz-meta'
 *
 * // Act on the code: it is stable, while a message may be reworded.
 * const advice: Partial<Record<BuzzErrorCode, string>> = { trust_too_low: 'ask the host for signed envelopes' }
 * ```
 * @group Reading
 */
export type BuzzErrorCode = (typeof BUZZ_ERROR_CODES)[number];

/**
 * One finding behind an error: what is wrong, and where (a JSON pointer into the input).
 *
 * @example
 * ```ts
 * import { verifyBuzzEnvelope, type BuzzIssue } from 'buzz-meta'
 *
 * const { failures } = verifyBuzzEnvelope(envelope, { agentPubkey })
 * const lines = failures.map((issue: BuzzIssue) => `${issue.code} at ${issue.path}: ${issue.message}`)
 * ```
 * @group Reading
 */
export interface BuzzIssue {
  /** Stable code of this finding. */
  readonly code: BuzzErrorCode;
  /** JSON pointer of the offending field, e.g. `/_meta/buzz/events/0/sig`; `''` for the whole input. */
  readonly path: string;
  /** What is wrong, in a sentence. */
  readonly message: string;
}

/**
 * The error buzz-meta returns (from `read…`) or throws (from `parse…` and helpers).
 *
 * @example
 * ```ts
 * try { parseBuzzContext(params, { agentPubkey }) }
 * catch (e) { if (e instanceof BuzzMetaError && e.code === 'attestation_signature_invalid') reject() }
 * ```
 * @group Reading
 */
export class BuzzMetaError extends Error {
  /** Always `'BuzzMetaError'`. */
  override readonly name = 'BuzzMetaError';
  /** Stable code of the first (deciding) finding. */
  readonly code: BuzzErrorCode;
  /** JSON pointer of the offending field of the first finding. */
  readonly path: string;
  /** Every finding, the deciding one first; never empty. */
  readonly issues: readonly [BuzzIssue, ...BuzzIssue[]];

  /** Builds an error from its findings; the first one decides `code`, `path` and `message`. */
  constructor(first: BuzzIssue, ...rest: BuzzIssue[]) {
    super(first.path === '' ? first.message : `${first.path}: ${first.message}`);
    this.code = first.code;
    this.path = first.path;
    this.issues = [first, ...rest];
  }

  /**
   * The deciding finding's sentence, without the path that `message` puts in front of it: what to
   * show a person who already sees `code` and `path`.
   *
   * @example
   * ```ts
   * BuzzMetaError.of('invalid_option', '/agentPubkey', 'agentPubkey must be 64 hex digits').reason
   * // 'agentPubkey must be 64 hex digits'
   * ```
   */
  get reason(): string {
    return this.issues[0].message;
  }

  /** Shorthand for an error with a single finding. */
  static of(code: BuzzErrorCode, path: string, message: string): BuzzMetaError {
    return new BuzzMetaError({ code, path, message });
  }
}

/**
 * What an internal step that can fail returns: its value, or what stopped it (by default the
 * error). The public results spell their success out instead (`BuzzReadResult` carries `context`).
 */
export type Result<T, E = BuzzMetaError> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

/** Joins JSON-pointer segments, escaping `~` and `/` as RFC 6901 asks. */
export function pointer(segments: readonly (string | number)[]): string {
  let out = '';
  for (const segment of segments) {
    out += '/' + String(segment).replaceAll('~', '~0').replaceAll('/', '~1');
  }
  return out;
}

/**
 * The error a read returns for anything thrown. A thrown value may be hostile (a Proxy whose traps
 * throw, an object with a throwing getter), so nothing of it is read beyond `instanceof`, itself
 * guarded: the result is always a {@link BuzzMetaError}, and reading never throws.
 */
export function asBuzzError(error: unknown): BuzzMetaError {
  try {
    if (error instanceof BuzzMetaError) return error;
  } catch {
    // A Proxy's getPrototypeOf trap threw: it is not one of ours.
  }
  return BuzzMetaError.of('internal', '', 'an unexpected exception was thrown while reading the request');
}
