/**
 * The fuzz budget shared by every property test.
 *
 * Property tests pass `{ numRuns }` from here to `fc.assert` / `test.prop`, so one environment
 * variable scales all of them: `FAST_CHECK_RUNS=50 npm test` for a quick pass, the default
 * (1000) in CI, and `npm run fuzz` sets it so the whole suite runs about a million cases.
 *
 * @packageDocumentation
 */

/** Cases per property when `FAST_CHECK_RUNS` is unset or empty. */
export const DEFAULT_NUM_RUNS = 1000;

/**
 * Parses a `FAST_CHECK_RUNS` value.
 *
 * @param raw - The environment value; `undefined` or blank means "use the default".
 * @returns A positive safe integer: the number of generated cases per property.
 * @throws RangeError when `raw` is not a positive integer in decimal (e.g. `"0"`, `"1e3x"`,
 * `"-5"`, `"2.5"`), so a typo fails the run loudly instead of silently fuzzing nothing.
 */
export function parseNumRuns(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_NUM_RUNS;
  const text = raw.trim();
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`FAST_CHECK_RUNS must be a positive integer (cases per property), got ${JSON.stringify(raw)}`);
  }
  return value;
}

/**
 * Generated cases per property test: `FAST_CHECK_RUNS` from the environment, default 1000.
 *
 * @example
 * ```ts
 * import { numRuns } from '../support/fuzz.js';
 * fc.assert(fc.property(fc.string(), (s) => ...), { numRuns });
 * ```
 */
export const numRuns: number = parseNumRuns(process.env.FAST_CHECK_RUNS);
