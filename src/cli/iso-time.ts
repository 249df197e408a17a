/**
 * Unix seconds as ISO 8601 UTC text without milliseconds (`2026-08-04T10:40:00Z`), the way
 * `Date#toISOString` writes it, but with the date part formatted once per day: `inspect` prints
 * the time of every event, and `Date` formatting was most of the cost of a report.
 */

/** A `Date` holds ±8.64e15 ms, ±100 million days around 1970. */
const MAX_SECONDS = 8.64e12;
const DAY_SECONDS = 86_400;

let day = Number.NaN;
/** `YYYY-MM-DDT` of `day` (`+275760-09-13T` far out). */
let dayText = '';

/** `seconds` as `YYYY-MM-DDTHH:MM:SSZ` (with milliseconds when not whole), or `out of range` beyond what a Date holds. */
export function isoTime(seconds: number): string {
  if (Math.abs(seconds) > MAX_SECONDS) return 'out of range';
  if (!Number.isInteger(seconds)) {
    const date = new Date(seconds * 1000);
    return Number.isNaN(date.getTime()) ? 'out of range' : date.toISOString().replace('.000Z', 'Z');
  }
  const days = Math.floor(seconds / DAY_SECONDS);
  if (days !== day) {
    day = days;
    dayText = new Date(days * DAY_SECONDS * 1000).toISOString().slice(0, -'00:00:00.000Z'.length);
  }
  const rest = seconds - days * DAY_SECONDS;
  return `${dayText}${twoDigits(Math.floor(rest / 3600))}:${twoDigits(Math.floor(rest / 60) % 60)}:${twoDigits(rest % 60)}Z`;
}

function twoDigits(value: number): string {
  return value < 10 ? `0${String(value)}` : String(value);
}
