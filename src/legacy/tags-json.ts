/**
 * A structural check of a rendered `Tags:` value before it is parsed: compact or spaced JSON of
 * an array of arrays of strings, read character by character without allocating. Content may
 * hold any number of lines that start like a Tags line; each is checked in time linear in its
 * length, and only a value that passes is handed to `JSON.parse` (which then cannot throw).
 */

/** True when `value` is exactly a JSON array of arrays of strings (what `JSON.parse` would accept as such). */
export function isTagsJson(value: string): boolean {
  let at = skipSpace(value, 0);
  if (value.charCodeAt(at) !== OPEN) return false;
  at = skipSpace(value, at + 1);
  if (value.charCodeAt(at) !== CLOSE) {
    for (;;) {
      at = tagEnd(value, at);
      if (at === -1) return false;
      at = skipSpace(value, at);
      const next = value.charCodeAt(at);
      if (next === CLOSE) break;
      if (next !== COMMA) return false;
      at = skipSpace(value, at + 1);
    }
  }
  return skipSpace(value, at + 1) === value.length;
}

const OPEN = 91;
const CLOSE = 93;
const COMMA = 44;
const QUOTE = 34;
const BACKSLASH = 92;

/** After one `["…", …]` starting at `at`, or -1. */
function tagEnd(value: string, start: number): number {
  if (value.charCodeAt(start) !== OPEN) return -1;
  let at = skipSpace(value, start + 1);
  if (value.charCodeAt(at) === CLOSE) return at + 1;
  for (;;) {
    at = stringEnd(value, at);
    if (at === -1) return -1;
    at = skipSpace(value, at);
    const next = value.charCodeAt(at);
    if (next === CLOSE) return at + 1;
    if (next !== COMMA) return -1;
    at = skipSpace(value, at + 1);
  }
}

/** After one JSON string starting at `at`, or -1. */
function stringEnd(value: string, start: number): number {
  if (value.charCodeAt(start) !== QUOTE) return -1;
  for (let at = start + 1; at < value.length; at++) {
    const code = value.charCodeAt(at);
    if (code === QUOTE) return at + 1;
    if (code < 32) return -1;
    if (code === BACKSLASH) {
      const escape = value.charCodeAt(at + 1);
      if (escape === 117) {
        if (!isHex4(value, at + 2)) return -1;
        at += 5;
      } else if (SIMPLE_ESCAPES.has(escape)) {
        at += 1;
      } else {
        return -1;
      }
    }
  }
  return -1;
}

/** `"`, `\`, `/`, `b`, `f`, `n`, `r`, `t`. */
const SIMPLE_ESCAPES: ReadonlySet<number> = new Set([34, 92, 47, 98, 102, 110, 114, 116]);

function isHex4(value: string, at: number): boolean {
  for (let i = at; i < at + 4; i++) {
    const code = value.charCodeAt(i);
    const hex = (code >= 48 && code <= 57) || (code >= 97 && code <= 102) || (code >= 65 && code <= 70);
    if (!hex) return false;
  }
  return true;
}

/** The first offset from `at` that is not JSON whitespace. */
function skipSpace(value: string, start: number): number {
  let at = start;
  for (;;) {
    const code = value.charCodeAt(at);
    if (code !== 32 && code !== 10 && code !== 13 && code !== 9) return at;
    at++;
  }
}
