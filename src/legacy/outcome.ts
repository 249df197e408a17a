/**
 * What the scraper's parts hand each other: a read, or a failure that says why in words that
 * echo nothing received. Failures are values, not exceptions, so a reading that does not work
 * out can be dropped while another is tried.
 */
import type { RenderedTags, ChannelDisplay } from './fields.js';

/** Why a reading failed: `invalid` (not what hosts render), `ambiguous` (more than one reading), `limit`. */
type FailureKind = 'invalid' | 'ambiguous' | 'limit';

/** A reading that did not work out. */
export interface Failure {
  /** What kind of failure. */
  readonly failure: FailureKind;
  /** One sentence, echoing nothing received. */
  readonly message: string;
  /**
   * True when the text may still be a host rendering (the check ran out of budget, met more
   * candidates than it weighs, or could not tell a block's real end): a one-string prompt with
   * such a reading anywhere fails, since the reading left undecided may be the real one.
   */
  readonly undecided?: true;
}

/** Builds a {@link Failure}. */
export function fail(failure: FailureKind, message: string): Failure {
  return { failure, message };
}

/** Builds a {@link Failure} that leaves its reading {@link Failure.undecided | undecided}. */
export function undecided(failure: FailureKind, message: string): Failure {
  return { failure, message, undecided: true };
}

/** `failure`, marked {@link Failure.undecided | undecided}. */
export function asUndecided(failure: Failure): Failure {
  return failure.undecided === true ? failure : undecided(failure.failure, failure.message);
}

/** True for a {@link Failure}. */
export function isFailure(value: object): value is Failure {
  return Object.hasOwn(value, 'failure');
}

/** One event as read from its block. */
export interface ScrapedEvent {
  /** `Event ID:`, or `null` in eras that never rendered it. */
  readonly id: string | null;
  /** 64 lowercase hex. */
  readonly sender: string;
  /** The host-rendered display name, if any. */
  readonly senderLabel?: string;
  /** `Kind:`, or `null` in V1. */
  readonly kind: number | null;
  /** Unix seconds. */
  readonly createdAt: number;
  /** Message text, verbatim. */
  readonly content: string;
  /** Tags, where the era rendered them unambiguously. */
  readonly tags?: RenderedTags;
  /** The `Channel:` line of the block. */
  readonly channel: ChannelDisplay;
}

/** `T` without `readonly`: for building a value field by field before handing it out. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
