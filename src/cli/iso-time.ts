/** Unix seconds as ISO 8601 UTC text, the way `inspect` prints an event's time. */

/**
 * `seconds` as `YYYY-MM-DDTHH:MM:SSZ` (with milliseconds when not whole), as `Date#toISOString`
 * writes it without `.000`; `out of range` beyond what a Date holds.
 */
export function isoTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? 'out of range' : date.toISOString().replace('.000Z', 'Z');
}
