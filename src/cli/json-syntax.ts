/**
 * Where a text stops being JSON, for the command's error messages (`line 3, column 17: not JSON`).
 * `JSON.parse` says where only in an engine's own words, which differ between Node versions and
 * runtimes and may quote the input; this scanner follows RFC 8259's grammar, builds no value, and
 * runs in one pass without recursion, so it costs no more than the parse that already failed.
 */

/** The first place `text` breaks the JSON grammar. */
interface JsonSyntaxError {
  /** UTF-16 offset of the first character that cannot continue the value (`text.length` when the text ended). */
  readonly offset: number;
  /** The text ended inside a value (it was cut), rather than holding a wrong character. */
  readonly truncated: boolean;
}

const OBJECT = 0;
const ARRAY = 1;

/** What may come next. */
const Next = { Value: 0, ValueOrClose: 1, Key: 2, KeyOrClose: 3, Colon: 4, CommaOrClose: 5 } as const;

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/** The literal names JSON has; each starts with a letter of its own. */
const LITERALS = ['true', 'false', 'null'];

/** One-character escapes JSON allows after a backslash (`u` takes four hex digits). */
const SIMPLE_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

function isHexDigit(code: number): boolean {
  return isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/**
 * The first syntax error of `text` as one JSON value (white space around it allowed), or
 * `undefined` when it is one. Agrees with `JSON.parse` on which texts are JSON.
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const end = text.length;
  const stack: number[] = [];
  let next: number = Next.Value;
  let at = 0;
  const failAt = (offset: number): JsonSyntaxError => ({ offset, truncated: offset >= end });
  for (;;) {
    while (at < end) {
      const code = text.charCodeAt(at);
      if (code !== SPACE && code !== TAB && code !== LF && code !== CR) break;
      at++;
    }
    if (at >= end) return next === Next.CommaOrClose && stack.length === 0 ? undefined : failAt(end);
    const char = text[at];
    switch (next) {
      case Next.ValueOrClose:
      case Next.Value: {
        if (next === Next.ValueOrClose && char === ']') {
          stack.pop();
          at++;
          next = Next.CommaOrClose;
          break;
        }
        if (char === '{' || char === '[') {
          stack.push(char === '{' ? OBJECT : ARRAY);
          at++;
          next = char === '{' ? Next.KeyOrClose : Next.ValueOrClose;
          break;
        }
        const after = scalarEnd(text, at);
        if (typeof after !== 'number') return after;
        at = after;
        next = Next.CommaOrClose;
        break;
      }
      case Next.KeyOrClose:
      case Next.Key: {
        if (next === Next.KeyOrClose && char === '}') {
          stack.pop();
          at++;
          next = Next.CommaOrClose;
          break;
        }
        if (char !== '"') return failAt(at);
        const after = stringEnd(text, at);
        if (typeof after !== 'number') return after;
        at = after;
        next = Next.Colon;
        break;
      }
      case Next.Colon:
        if (char !== ':') return failAt(at);
        at++;
        next = Next.Value;
        break;
      case Next.CommaOrClose: {
        const open = stack.at(-1);
        if (open === undefined) return failAt(at);
        if (char === ',') next = open === OBJECT ? Next.Key : Next.Value;
        else if (char === (open === OBJECT ? '}' : ']')) stack.pop();
        else return failAt(at);
        at++;
        break;
      }
    }
  }
}

/** The end of the string, number or literal at `start`, or where it breaks. */
function scalarEnd(text: string, start: number): number | JsonSyntaxError {
  const code = text.charCodeAt(start);
  if (code === QUOTE) return stringEnd(text, start);
  if (code === MINUS || isDigit(code)) return numberEnd(text, start);
  const literal = LITERALS.find((word) => word.charCodeAt(0) === code);
  if (literal !== undefined) {
    for (let i = 1; i < literal.length; i++) {
      if (start + i >= text.length) return { offset: text.length, truncated: true };
      if (text[start + i] !== literal[i]) return { offset: start + i, truncated: false };
    }
    return start + literal.length;
  }
  return { offset: start, truncated: false };
}

/** The offset after the closing quote of the string that opens at `start`. */
function stringEnd(text: string, start: number): number | JsonSyntaxError {
  const end = text.length;
  let at = start + 1;
  while (at < end) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) return at + 1;
    if (code < SPACE) return { offset: at, truncated: false };
    if (code !== BACKSLASH) {
      at++;
      continue;
    }
    if (at + 1 >= end) break;
    const escape = text[at + 1] ?? '';
    if (escape === 'u') {
      for (let i = 2; i < 6; i++) {
        if (at + i >= end) return { offset: end, truncated: true };
        if (!isHexDigit(text.charCodeAt(at + i))) return { offset: at + i, truncated: false };
      }
      at += 6;
    } else if (SIMPLE_ESCAPES.has(escape)) at += 2;
    else return { offset: at + 1, truncated: false };
  }
  return { offset: end, truncated: true };
}

/** The offset after the number at `start`: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. */
function numberEnd(text: string, start: number): number | JsonSyntaxError {
  const end = text.length;
  let at = start;
  const digits = (): JsonSyntaxError | undefined => {
    if (at >= end) return { offset: end, truncated: true };
    if (!isDigit(text.charCodeAt(at))) return { offset: at, truncated: false };
    while (at < end && isDigit(text.charCodeAt(at))) at++;
    return undefined;
  };
  if (text.charCodeAt(at) === MINUS) at++;
  if (at < end && text.charCodeAt(at) === ZERO) at++;
  else {
    const broken = digits();
    if (broken !== undefined) return broken;
  }
  if (at < end && text[at] === '.') {
    at++;
    const broken = digits();
    if (broken !== undefined) return broken;
  }
  if (at < end && (text[at] === 'e' || text[at] === 'E')) {
    at++;
    if (at < end && (text[at] === '+' || text[at] === '-')) at++;
    const broken = digits();
    if (broken !== undefined) return broken;
  }
  return at;
}
