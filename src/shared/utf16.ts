/**
 * Text checks that JavaScript strings need and Rust strings do not: a JS string may hold a lone
 * UTF-16 surrogate, which buzz-acp (Rust) can never produce or parse (`String` is UTF-8).
 */

/** A lone surrogate: with the `u` flag a paired surrogate is one code point and never matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Control, format, line/paragraph separator characters and lone surrogates: unsafe to print. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** Anything but printable ASCII: a string without it holds nothing {@link UNPRINTABLE} matches. */
const BEYOND_PRINTABLE_ASCII = /[^\x20-\x7e]/;

/** True when `text` is well-formed UTF-16 (no lone surrogate). Linear time. */
export function isWellFormedUtf16(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/**
 * A received string made safe to show in a diagnostic: unprintable characters become U+FFFD, and
 * it is clipped to at most `max` UTF-16 units (then `…`) without splitting a surrogate pair.
 */
export function printable(text: string, max: number): string {
  // Clip first (bounded work on hostile input); step back off a high surrogate so no pair splits.
  let clipped = text;
  if (text.length > max) {
    const code = text.charCodeAt(max - 1);
    const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
    clipped = text.slice(0, end) + '…';
  }
  return clipped.replace(UNPRINTABLE, '\uFFFD');
}

/**
 * JSON text with every unprintable character ({@link printable}'s set) written as a `\uXXXX`
 * escape: the same JSON value, and nothing a terminal acts on. `JSON.stringify` already escapes
 * U+0000–U+001F and lone surrogates, not DEL, C1 controls, bidi overrides or U+2028.
 */
export function escapeUnprintableJson(json: string): string {
  // Most report lines are printable ASCII: a plain character class answers them faster than the Unicode scan.
  if (!BEYOND_PRINTABLE_ASCII.test(json)) return json;
  return json.replace(UNPRINTABLE, (found) => {
    let escaped = '';
    for (let i = 0; i < found.length; i++) escaped += `\\u${found.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return escaped;
  });
}
