/**
 * Size bounds applied to everything read from `_meta.buzz`. A delivery beyond a bound fails with
 * `limit_exceeded`: an agent should not spend memory or CPU on input no honest host sends.
 */
import { BuzzMetaError } from './errors.js';

/**
 * Size bounds for one read. Every field is optional in options; defaults are {@link DEFAULT_LIMITS}.
 * Lengths count UTF-16 code units (JavaScript's `string.length`), never code points.
 *
 * @example
 * ```ts
 * import { readBuzzContext, type BuzzLimits } from 'buzz-meta'
 *
 * const limits: Partial<BuzzLimits> = { maxContentLength: 16_384, maxEvents: 20 } // the rest as DEFAULT_LIMITS
 * const read = readBuzzContext(params, { agentPubkey, limits })
 * ```
 * @group Reading
 */
export interface BuzzLimits {
  /** Events per delivery (`events`, and separately `cancelledEvents`). */
  readonly maxEvents: number;
  /** Tags per event. */
  readonly maxTags: number;
  /** Values per tag (`["e", id, relay, marker]` has 4). */
  readonly maxTagValues: number;
  /** UTF-16 length of one tag value. */
  readonly maxTagValueLength: number;
  /** UTF-16 length of an event's content. */
  readonly maxContentLength: number;
  /** Members listed for a channel. */
  readonly maxMembers: number;
  /** Nesting depth of any value under `_meta.buzz` (guards the canonicalizer's recursion). */
  readonly maxDepth: number;
  /**
   * Summed UTF-16 length of every string under `_meta.buzz`, keys included: the bound on what
   * hashing costs, checked before anything is hashed.
   */
  readonly maxTotalLength: number;
  /** Values under `_meta.buzz` (objects, arrays, strings, numbers, …), each visit counted. */
  readonly maxNodes: number;
  /**
   * Keys of any one object under `_meta.buzz`, known or not. Canonical JSON sorts each object's
   * keys, the one step whose cost grows faster than the request: this keeps it linear.
   */
  readonly maxObjectKeys: number;
}

/**
 * The Buzz relay's default WebSocket frame (`DEFAULT_MAX_FRAME_BYTES`, 512 KiB, in
 * crates/buzz-relay/src/config.rs): no event the relay accepts is larger. Every tag, tag value and
 * UTF-16 unit of content takes at least one byte of it, so no per-event count or length can exceed it.
 */
const RELAY_FRAME_BYTES = 512 * 1024;

/**
 * The ACP SDK's default message bound (`DEFAULT_MAX_MESSAGE_BYTES` of `\@agentclientprotocol/sdk`,
 * 32 MiB): every UTF-16 unit of a string in the JSON text takes at least one byte, so no
 * `session/prompt` the SDK accepts holds more string length than this.
 */
const ACP_MESSAGE_BYTES = 32 * 1024 * 1024;

/**
 * The default bounds: none refuses a delivery a real buzz-acp host sends through a default Buzz
 * relay and ACP SDK (README, "Limits", says where each comes from); the total bounds keep what a
 * sender without the key can make the reader do linear in the size of its request.
 *
 * @example
 * ```ts
 * import { DEFAULT_LIMITS, readBuzzContext } from 'buzz-meta'
 *
 * // Twice the default batch size; every other limit as shipped.
 * const read = readBuzzContext(params, { agentPubkey, limits: { maxEvents: DEFAULT_LIMITS.maxEvents * 2 } })
 * ```
 * @group Reading
 */
export const DEFAULT_LIMITS: BuzzLimits = Object.freeze({
  maxEvents: 1000,
  maxTags: RELAY_FRAME_BYTES,
  maxTagValues: RELAY_FRAME_BYTES,
  maxTagValueLength: RELAY_FRAME_BYTES,
  maxContentLength: RELAY_FRAME_BYTES,
  maxMembers: 10_000,
  maxDepth: 32,
  maxTotalLength: ACP_MESSAGE_BYTES,
  // Every JSON value takes at least two bytes of the message (itself and a separator).
  maxNodes: ACP_MESSAGE_BYTES / 2,
  // The contract's largest objects (the envelope, an event) have 7 keys; 1024 leaves room for what a later
  // upstream adds while keeping the key sort at most log2(1024) = 10 comparisons a key.
  maxObjectKeys: 1024,
});

const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as (keyof BuzzLimits)[];

/** A safe integer of at least 1 (`Number.isSafeInteger` is false for every non-number). */
function isPositiveInteger(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

/**
 * Merges caller overrides into the defaults, reading only known names.
 * Returns {@link DEFAULT_LIMITS} itself when nothing is overridden, so callers can cache by identity.
 */
export function resolveLimits(overrides: Partial<BuzzLimits> | undefined): BuzzLimits {
  if (overrides === undefined) return DEFAULT_LIMITS;
  let changed = false;
  const out: Record<keyof BuzzLimits, number> = { ...DEFAULT_LIMITS };
  for (const name of LIMIT_NAMES) {
    const value: unknown = overrides[name];
    if (value === undefined) continue;
    if (!isPositiveInteger(value)) {
      throw BuzzMetaError.of('invalid_option', `/limits/${name}`, 'a limit must be a positive integer');
    }
    if (value !== DEFAULT_LIMITS[name]) changed = true;
    out[name] = value;
  }
  return changed ? Object.freeze(out) : DEFAULT_LIMITS;
}

/** A stable string key of a limits object, for caching the schema built from it. */
export function limitsKey(limits: BuzzLimits): string {
  return LIMIT_NAMES.map((name) => limits[name]).join(',');
}
