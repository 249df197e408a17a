/**
 * What a line that cannot be parsed still says about itself: its JSON-RPC `id`, and whether it is
 * a request or a response. Read from the top-level keys at its start (a line cut by the length
 * bound, or broken somewhere after them) and from a closing `"id": …}` at its end (serializers
 * that write the id last). One pass over at most the kept bytes; never more than a guess, so the
 * caller only uses it to answer a request that is really pending.
 */

/** A JSON-RPC id as the relay keys it. */
type JsonRpcId = string | number;

/** What was recovered; `id` is `undefined` when none was found. */
interface Recovered {
  readonly id: JsonRpcId | undefined;
  /** A top-level `method` key was seen: a request or a notification. */
  readonly hasMethod: boolean;
}

const WHITE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Index of the first non-white character at or after `i`. */
function skipWhite(text: string, i: number): number {
  while (i < text.length && WHITE.has(text.charCodeAt(i))) i++;
  return i;
}

/** Index just after the string starting at `i` (a `"`), or -1 when it does not end in `text`. */
function stringEnd(text: string, i: number): number {
  for (let at = text.indexOf('"', i + 1); at >= 0; at = text.indexOf('"', at + 1)) {
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return at + 1;
  }
  return -1;
}

/** Index just after the value starting at `i`, or -1 when it does not end in `text`. */
function valueEnd(text: string, i: number): number {
  let depth = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
      if (i < 0) return -1;
      if (depth === 0) return i;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return i + 1;
      if (depth < 0) return i;
    } else if (depth === 0 && (c === 0x2c || WHITE.has(c))) return i;
    i++;
  }
  return -1;
}

/** The id a JSON token denotes, or `undefined` for anything that is not a string or a finite number. */
function idOf(token: string): JsonRpcId | undefined {
  try {
    const value: unknown = JSON.parse(token);
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) return value;
  } catch {
    // Not a whole token.
  }
  return undefined;
}

/** The top-level keys at the start of `head` until the text stops or breaks. */
function fromHead(head: string): { id: JsonRpcId | undefined; hasMethod: boolean } {
  let id: JsonRpcId | undefined;
  let hasMethod = false;
  let i = skipWhite(head, 0);
  if (head.charCodeAt(i) !== 0x7b) return { id, hasMethod };
  i++;
  for (;;) {
    i = skipWhite(head, i);
    if (head.charCodeAt(i) !== 0x22) break;
    const keyEnd = stringEnd(head, i);
    if (keyEnd < 0) break;
    const key = idOf(head.slice(i, keyEnd));
    i = skipWhite(head, keyEnd);
    if (head.charCodeAt(i) !== 0x3a) break;
    i = skipWhite(head, i + 1);
    const end = valueEnd(head, i);
    if (end < 0) break;
    if (key === 'id') id = idOf(head.slice(i, end));
    else if (key === 'method') hasMethod = true;
    i = skipWhite(head, end);
    if (head.charCodeAt(i) !== 0x2c) break;
    i++;
  }
  return { id, hasMethod };
}

/** An `"id": <number or plain string>}` that closes `tail`, read backwards. */
function fromTail(tail: string): JsonRpcId | undefined {
  let end = tail.length;
  while (end > 0 && WHITE.has(tail.charCodeAt(end - 1))) end--;
  if (tail.charCodeAt(end - 1) !== 0x7d) return undefined;
  let i = end - 1;
  while (i > 0 && WHITE.has(tail.charCodeAt(i - 1))) i--;
  const valueStop = i;
  let valueStart: number;
  if (tail.charCodeAt(i - 1) === 0x22) {
    valueStart = tail.lastIndexOf('"', i - 2);
    // Ids with escapes are left alone: reading them backwards is not worth the risk of a wrong answer.
    if (valueStart < 0 || tail.slice(valueStart, valueStop).includes('\\')) return undefined;
  } else {
    valueStart = i;
    while (valueStart > 0 && /[\d.e+-]/i.test(tail.charAt(valueStart - 1))) valueStart--;
  }
  let j = valueStart;
  while (j > 0 && WHITE.has(tail.charCodeAt(j - 1))) j--;
  if (tail.charCodeAt(j - 1) !== 0x3a) return undefined;
  j--;
  while (j > 0 && WHITE.has(tail.charCodeAt(j - 1))) j--;
  if (!tail.slice(0, j).endsWith('"id"')) return undefined;
  const before = tail.slice(0, j - 4).trimEnd();
  if (!before.endsWith(',')) return undefined;
  return idOf(tail.slice(valueStart, valueStop));
}

/** What the start and the end of a broken line say about it. */
export function recoverEnvelope(head: string, tail: string): Recovered {
  const start = fromHead(head);
  return { id: start.id ?? fromTail(tail), hasMethod: start.hasMethod };
}
