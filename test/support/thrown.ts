/**
 * The BuzzMetaError a call throws, for tests that check its code, path and message. Anything
 * else thrown (a TypeError from a bug) is rethrown, and not throwing at all fails the test.
 *
 * @packageDocumentation
 */
import { BuzzMetaError } from '../../src/index.js';

/** Runs `run` and returns the {@link BuzzMetaError} it throws. */
export function thrownBuzzError(run: () => unknown): BuzzMetaError {
  try {
    run();
  } catch (error) {
    if (error instanceof BuzzMetaError) return error;
    throw error;
  }
  throw new Error('expected a BuzzMetaError');
}
