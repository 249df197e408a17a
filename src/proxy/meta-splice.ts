/**
 * Rewrites `params._meta` of a request line and leaves every other byte as it arrived: the prompt
 * text, `_meta.buzz` and the host's other `_meta` keys reach the agent exactly as the host wrote
 * them. The line already passed `JSON.parse`, so the scan below only has to find where values
 * start and end, in one pass. A line whose `params` or `_meta` is given twice is re-serialized
 * instead, with one of each: parsers disagree about which copy counts, and the agent must see the
 * one the proxy read.
 */

/** What becomes of the members of `_meta`. */
interface MetaEdit {
  /** Whether a member of `_meta` stays (decided on its key, unescaped). */
  readonly keep: (key: string) => boolean;
  /** Members appended after the kept ones: key → JSON text. */
  readonly add: readonly (readonly [string, string])[];
}

/** One member of an object: its key, where the member starts and where its value starts and ends. */
interface Member {
  readonly key: string;
  readonly start: number;
  readonly valueStart: number;
  readonly valueEnd: number;
}

const QUOTE = 0x22;

function isWhite(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipWhite(text: string, i: number): number {
  while (isWhite(text.charCodeAt(i))) i++;
  return i;
}

/** Index just after the string starting at `i` (valid JSON: it ends). */
function stringEnd(text: string, i: number): number {
  let at = text.indexOf('"', i + 1);
  for (;;) {
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return at + 1;
    at = text.indexOf('"', at + 1);
  }
}

/** Index just after the value starting at `i` (valid JSON). */
function valueEnd(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return stringEnd(text, i);
  if (first !== 0x7b && first !== 0x5b) {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x2c || c === 0x7d || c === 0x5d || isWhite(c)) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1;
    i++;
  }
}

/** The key of a member: its text, unescaped only when it has an escape. */
function keyOf(token: string): string {
  return token.includes('\\') ? (JSON.parse(token) as string) : token.slice(1, -1);
}

/** The members of the object starting at `open` (a `{`), and the index of its `}`. */
function membersOf(text: string, open: number): { members: Member[]; close: number } {
  const members: Member[] = [];
  let i = skipWhite(text, open + 1);
  if (text.charCodeAt(i) === 0x7d) return { members, close: i };
  for (;;) {
    const start = i;
    const keyEnd = stringEnd(text, i);
    const key = keyOf(text.slice(i, keyEnd));
    const valueStart = skipWhite(text, skipWhite(text, keyEnd) + 1);
    const end = valueEnd(text, valueStart);
    members.push({ key, start, valueStart, valueEnd: end });
    i = skipWhite(text, end);
    if (text.charCodeAt(i) === 0x7d) return { members, close: i };
    i = skipWhite(text, i + 1);
  }
}

function only(members: readonly Member[], key: string): Member | undefined | 'twice' {
  let found: Member | undefined;
  for (const member of members) {
    if (member.key !== key) continue;
    if (found !== undefined) return 'twice';
    found = member;
  }
  return found;
}

/** `{` + the kept members of `old` (as they were) + the added ones + `}`. */
function editedObject(text: string, old: readonly Member[], edit: MetaEdit): string {
  const parts: string[] = [];
  for (const member of old) if (edit.keep(member.key)) parts.push(text.slice(member.start, member.valueEnd));
  for (const [key, json] of edit.add) parts.push(`${JSON.stringify(key)}:${json}`);
  return `{${parts.join(',')}}`;
}

/**
 * `line` (one JSON-RPC request whose `params` is an object, as text) with `params._meta` edited;
 * `parsed` is the same line parsed, used only when a key is given twice.
 */
export function spliceMeta(line: string, parsed: Record<string, unknown>, edit: MetaEdit): string {
  const top = membersOf(line, skipWhite(line, 0));
  const params = only(top.members, 'params');
  if (params === 'twice' || params === undefined) return reserialized(parsed, edit);
  const inParams = membersOf(line, params.valueStart);
  const meta = only(inParams.members, '_meta');
  if (meta === 'twice') return reserialized(parsed, edit);
  if (meta === undefined) {
    const comma = inParams.members.length === 0 ? '' : ',';
    return `${line.slice(0, inParams.close)}${comma}"_meta":${editedObject(line, [], edit)}${line.slice(inParams.close)}`;
  }
  let replacement: string;
  if (line.charCodeAt(meta.valueStart) === 0x7b) {
    const inMeta = membersOf(line, meta.valueStart).members;
    if (new Set(inMeta.map((member) => member.key)).size !== inMeta.length) return reserialized(parsed, edit);
    replacement = editedObject(line, inMeta, edit);
  } else {
    // `null`, or a value that is no object (the SDK reads it as no `_meta`): the proxy's own object.
    replacement = editedObject(line, [], edit);
  }
  return line.slice(0, meta.valueStart) + replacement + line.slice(meta.valueEnd);
}

/** The fallback: the parsed request written out again, `params._meta` edited. */
function reserialized(parsed: Record<string, unknown>, edit: MetaEdit): string {
  const params = parsed.params as Record<string, unknown>;
  const meta = Object.hasOwn(params, '_meta') ? params._meta : undefined;
  const parts: string[] = [];
  if (meta !== null && typeof meta === 'object' && !Array.isArray(meta)) {
    for (const [key, value] of Object.entries(meta)) {
      if (edit.keep(key)) parts.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
    }
  }
  for (const [key, json] of edit.add) parts.push(`${JSON.stringify(key)}:${json}`);
  const metaText = `{${parts.join(',')}}`;
  const paramsText = objectText(params, '_meta', metaText);
  return objectText(parsed, 'params', paramsText);
}

/** `object` as JSON, with the member `key` written as `json` (appended when absent). */
function objectText(object: Record<string, unknown>, key: string, json: string): string {
  const parts: string[] = [];
  let written = false;
  for (const [name, value] of Object.entries(object)) {
    if (name === key) {
      parts.push(`${JSON.stringify(name)}:${json}`);
      written = true;
    } else parts.push(`${JSON.stringify(name)}:${JSON.stringify(value)}`);
  }
  if (!written) parts.push(`${JSON.stringify(key)}:${json}`);
  return `{${parts.join(',')}}`;
}
