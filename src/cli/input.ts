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

/** What the input held. */
export interface ParsedInput {
  /** Every `session/prompt`, in input order. */
  readonly prompts: readonly FoundPrompt[];
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
 * Splits and parses `bytes`. A single JSON document (even pretty-printed) is one value at line 1;
 * otherwise every non-blank line must be one JSON value.
 */
export function parseInput(bytes: Uint8Array, maxLineBytes: number = MAX_LINE_BYTES): ParsedInput {
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw new CliError(`line ${String(lineAt(bytes, nul))}: binary data (a NUL byte), not JSON text`);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isUtf8(buffer)) {
    throw new CliError(`line ${String(firstBadUtf8Line(buffer))}: binary data (not UTF-8), not JSON text`);
  }
  const lines = splitLines(buffer, maxLineBytes);
  const text = buffer.toString('utf8');
  const whole = tryWhole(text);
  const values: { line: number; value: unknown }[] = [];
  if (whole !== undefined) values.push({ line: firstNonBlankLine(lines), value: whole.value });
  else {
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      values.push({
        line: index + 1,
        value: parseLine(line, index + 1, index === lines.length - 1 && !text.endsWith('\n')),
      });
    });
  }
  if (values.length === 0) {
    throw new CliError('the input is empty: give a JSON-RPC request, params, or an NDJSON capture');
  }
  const prompts: FoundPrompt[] = [];
  let skipped = 0;
  for (const { line, value } of values) {
    const prompt = asPrompt(value, line);
    if (prompt === undefined) skipped++;
    else prompts.push(prompt);
  }
  if (prompts.length === 0 && values.length === 1 && !isJsonRpc(values[0]?.value)) {
    throw new CliError(`line ${String(values[0]?.line)}: neither a JSON-RPC message nor session/prompt params`);
  }
  return { prompts, skipped };
}

function splitLines(buffer: Buffer, maxLineBytes: number): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start <= buffer.length) {
    let end = buffer.indexOf(NEWLINE, start);
    if (end < 0) end = buffer.length;
    if (end - start > maxLineBytes) {
      throw new CliError(
        `line ${String(lines.length + 1)}: longer than ${String(maxLineBytes)} bytes (the ACP message limit)`,
      );
    }
    lines.push(buffer.toString('utf8', start, end));
    start = end + 1;
  }
  return lines;
}

function tryWhole(text: string): { value: unknown } | undefined {
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

function firstNonBlankLine(lines: readonly string[]): number {
  const index = lines.findIndex((line) => line.trim() !== '');
  return index + 1;
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
