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
export interface InputSummary {
  /** `session/prompt` messages found (each was passed to the callback). */
  readonly prompts: number;
  /** JSON values that were other methods or responses, skipped. */
  readonly skipped: number;
}

/**
 * The longest line accepted: 32 MiB, the ACP SDK's own message limit (`DEFAULT_MAX_MESSAGE_BYTES`),
 * so nothing a transport accepted is refused. Not imported: the command must run without the SDK.
 */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

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
  const endsWithNewline = buffer.length > 0 && buffer[buffer.length - 1] === NEWLINE;
  const parse = (index: number, text: string): unknown =>
    parseLine(text, index + 1, index === ends.length - 1 && !endsWithNewline);

  let first = -1;
  let firstText = '';
  for (let index = 0; index < ends.length && first < 0; index++) {
    const text = lineText(index);
    if (text.trim() !== '') {
      first = index;
      firstText = text;
    }
  }
  if (first < 0) throw new CliError('the input is empty: give a JSON-RPC request, params, or an NDJSON capture');

  let prompts = 0;
  let skipped = 0;
  let values = 0;
  let only: { line: number; value: unknown } | undefined;
  const take = (line: number, value: unknown): void => {
    values++;
    only = values === 1 ? { line, value } : undefined;
    const prompt = asPrompt(value, line);
    if (prompt === undefined) skipped++;
    else {
      prompts++;
      onPrompt(prompt);
    }
  };

  const head = tryParse(firstText);
  if (head === undefined) {
    // Not one value per line: the whole input must be one (pretty-printed) document.
    const whole = tryParse(buffer.toString('utf8'));
    // Neither parses: the first line's own error (parsing it alone throws).
    take(first + 1, whole === undefined ? parse(first, firstText) : whole.value);
  } else {
    // The first line is a whole value, so the input is NDJSON (one document would end there).
    take(first + 1, head.value);
    for (let index = first + 1; index < ends.length; index++) {
      const text = lineText(index);
      if (text.trim() !== '') take(index + 1, parse(index, text));
    }
  }
  if (prompts === 0 && values === 1 && only !== undefined && !isJsonRpc(only.value)) {
    throw new CliError(`line ${String(only.line)}: neither a JSON-RPC message nor session/prompt params`);
  }
  return { prompts, skipped };
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
    return undefined;
  }
}

function parseLine(line: string, number: number, last: boolean): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch (error) {
    // V8 says "Unexpected end of JSON input" or "Unterminated string" when the text stops
    // inside a value: the capture was cut (a crashed writer, a partial copy).
    const message = error instanceof Error ? error.message : '';
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
  for (let i = 0; i < offset; i++) if (bytes[i] === NEWLINE) line++;
  return line;
}

function firstBadUtf8Line(buffer: Buffer): number {
  let start = 0;
  let line = 1;
  for (;;) {
    let end = buffer.indexOf(NEWLINE, start);
    if (end < 0) end = buffer.length;
    if (!isUtf8(buffer.subarray(start, end))) return line;
    if (end >= buffer.length) return line;
    start = end + 1;
    line++;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
