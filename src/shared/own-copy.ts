/**
 * Copies of strings cut from received text that keep none of that text alive.
 */

/**
 * `text` copied into memory of its own. V8 makes a substring (a slice, a regex match) a view of
 * the string it was cut from, and a view that is kept keeps all of that string: an event id cut
 * from a large prompt and remembered by a dedup store would hold the prompt for the store's TTL.
 * Lossless for every string (UTF-16 keeps each code unit), and one byte a character stays one.
 */
export function ownCopy(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}
