/**
 * Size bounds applied to everything read from `_meta.buzz`. A delivery beyond a bound fails with
 * `limit_exceeded`: an agent should not spend memory or CPU on input no honest host sends.
 */
import { BuzzMetaError } from './errors.js';

/** Size bounds for one read. Every field is optional in options; defaults are {@link DEFAULT_LIMITS}. */
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
}

/** The default bounds: generous for real chat, small enough that hostile input is cheap to refuse. */
export const DEFAULT_LIMITS: BuzzLimits = Object.freeze({
  maxEvents: 100,
  maxTags: 100,
  maxTagValues: 16,
  maxTagValueLength: 1024,
  maxContentLength: 65_536,
  maxMembers: 1000,
  maxDepth: 32,
});

const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as (keyof BuzzLimits)[];

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
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
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
