/**
 * Reads what `inspect` and `verify` are given: one JSON-RPC message, one `session/prompt` params
 * object, or an NDJSON capture of ACP traffic in either direction. Every problem is a
 * {@link CliError} naming the line, never a stack trace and never the offending text.
 */
import { isUtf8 } from 'node:buffer';
import { CliError } from './cli-error.js';

/** A `session/prompt` found in the input. */
export interface FoundPrompt {
  /** 1-based line where its JSON value starts. */
  readonly line: number;
  /** The JSON-RPC id of the request, or `null` for a bare params object. */
  readonly requestId: string | number | null;
  /** The request's `params` (unvalidated: the reader checks it). */
  readonly params: unknown;
}

/** What the input held, besides its prompts. */
interface InputSummary {
  /** JSON values that were other methods or responses, skipped. */
  readonly skipped: number;
}

/**
 * The longest line accepted: 32 MiB, the ACP SDK's own message limit (`DEFAULT_MAX_MESSAGE_BYTES`),
 * so nothing a transport accepted is refused. Not imported: the command must run without the SDK.
 */
const MAX_LINE_BYTES = 32 * 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * Splits and parses `bytes`, calling `onPrompt` for every `session/prompt` in input order. A single
 * JSON document (even pretty-printed) is one value at its first line; otherwise every non-blank line
 * must be one JSON value. Lines are parsed one at a time and not kept, so a large capture is never
 * held as parsed values all at once. A problem anywhere throws; the caller prints nothing of a run
 * that threw.
 */
export function forEachPrompt(
  bytes: Uint8Array,
  onPrompt: (prompt: FoundPrompt) => void,
  maxLineBytes: number = MAX_LINE_BYTES,
): InputSummary {
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw new CliError(`line ${String(lineAt(bytes, nul))}: binary data (a NUL byte), not JSON text`);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isUtf8(buffer)) {
    throw new CliError(`line ${String(firstBadUtf8Line(buffer))}: binary data (not UTF-8), not JSON text`);
  }
  const ends = lineEnds(buffer, maxLineBytes);
  const lineText = (index: number): string =>
    buffer.toString('utf8', index === 0 ? 0 : (ends[index - 1] ?? 0) + 1, ends[index]);
  // Only the last line can end without a newline (after one, the last line is the empty rest).
  const parse = (index: number, text: string): unknown => parseLine(text, index + 1, index === ends.length - 1);

  const first = ends.findIndex((_, index) => !isBlank(lineText(index)));
  if (first < 0) throw new CliError('the input is empty: give a JSON-RPC request, params, or an NDJSON capture');

  let skipped = 0;
  let values = 0;
  const take = (line: number, value: unknown): void => {
    values++;
    const prompt = asPrompt(value, line);
    if (prompt === undefined) skipped++;
    else onPrompt(prompt);
  };

  const firstText = lineText(first);
  const head = tryParse(firstText);
  let firstValue: unknown;
  if (head === undefined) {
    // Not one value per line: the whole input must be one (pretty-printed) document; when neither
    // parses, the first line's own error (parsing it alone throws).
    firstValue = (tryParse(buffer.toString('utf8')) ?? { value: parse(first, firstText) }).value;
    take(first + 1, firstValue);
  } else {
    // The first line is a whole value, so the input is NDJSON (one document would end there).
    firstValue = head.value;
    take(first + 1, firstValue);
    ends.forEach((_, index) => {
      if (index <= first) return;
      const text = lineText(index);
      if (!isBlank(text)) take(index + 1, parse(index, text));
    });
  }
  if (values === 1 && skipped === 1 && !isJsonRpc(firstValue)) {
    throw new CliError(`line ${String(first + 1)}: neither a JSON-RPC message nor session/prompt params`);
  }
  return { skipped };
}

/** Whether a line holds nothing but white space (`\r` of a CRLF line end included). */
function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** The end offset (exclusive) of every line; the last line ends at the end of the input. */
function lineEnds(buffer: Buffer, maxLineBytes: number): number[] {
  const ends: number[] = [];
  let start = 0;
  while (start <= buffer.length) {
    let end = buffer.indexOf(NEWLINE, start);
    if (end < 0) end = buffer.length;
    if (end - start > maxLineBytes) {
      throw new CliError(
        `line ${String(ends.length + 1)}: longer than ${String(maxLineBytes)} bytes (the ACP message limit)`,
      );
    }
    ends.push(end);
    start = end + 1;
  }
  return ends;
}

function tryParse(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    // Not one JSON value: the caller decides what that means.
  }
  return undefined;
}

function parseLine(line: string, number: number, last: boolean): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch (error) {
    // V8 says "Unexpected end of JSON input" or "Unterminated string" when the text stops
    // inside a value: the capture was cut (a crashed writer, a partial copy). JSON.parse throws
    // SyntaxErrors only.
    const message = String(error);
    const cut = message.includes('Unexpected end of JSON input') || message.includes('Unterminated string');
    if (cut) {
      throw new CliError(
        `line ${String(number)}: truncated JSON (the line ends inside a value${last ? ', at the end of the input' : ''})`,
      );
    }
    throw new CliError(`line ${String(number)}: not JSON`);
  }
}

function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (const byte of bytes.subarray(0, offset)) if (byte === NEWLINE) line++;
  return line;
}

/** The first line that is not UTF-8 (a multi-byte sequence never holds a newline byte, so one is). */
function firstBadUtf8Line(buffer: Buffer): number {
  let start = 0;
  let line = 1;
  for (;;) {
    const end = buffer.indexOf(NEWLINE, start);
    if (end < 0 || !isUtf8(buffer.subarray(start, end))) return line;
    start = end + 1;
    line++;
  }
}

/** Objects and arrays (JSON has no other objects); arrays own none of the keys looked for. */
function isObject(value: unknown): value is Record<string, unknown> {
  return value instanceof Object;
}

function isJsonRpc(value: unknown): boolean {
  return (
    isObject(value) &&
    (Object.hasOwn(value, 'method') || Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error'))
  );
}

/** The prompt in one JSON value, or `undefined` for other traffic. Reads own properties only. */
function asPrompt(value: unknown, line: number): FoundPrompt | undefined {
  if (!isObject(value)) return undefined;
  if (Object.hasOwn(value, 'method')) {
    if (value.method !== 'session/prompt') return undefined;
    const id = Object.hasOwn(value, 'id') ? value.id : null;
    const requestId = typeof id === 'string' || typeof id === 'number' ? id : null;
    return { line, requestId, params: Object.hasOwn(value, 'params') ? value.params : undefined };
  }
  if (Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error')) return undefined;
  if (Object.hasOwn(value, 'prompt') || Object.hasOwn(value, '_meta')) return { line, requestId: null, params: value };
  return undefined;
}
