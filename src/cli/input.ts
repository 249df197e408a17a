/**
 * Reads what `inspect` and `verify` are given: one JSON-RPC message, one `session/prompt` params
 * object, or an NDJSON capture of ACP traffic in either direction. A capture is read line by line,
 * and a line that is not JSON (an agent that logged to stdout, a cut write, binary data) is
 * reported and passed over: the rest of the capture is still worth reading. Only input with
 * nothing to read at all is a {@link CliError}. Problems name the line and column, never the
 * offending text.
 */
import { isUtf8 } from 'node:buffer';
import { CliError } from './cli-error.js';
import { jsonSyntaxError } from './json-syntax.js';

/** A JSON-RPC request id (a string or a number), or `null` for a bare params object or another id. */
type RequestId = string | number | null;

/** A `session/prompt` found in the input. */
export interface FoundPrompt {
  /** 1-based line where its JSON value starts. */
  readonly line: number;
  /** The JSON-RPC id of the request, or `null` for a bare params object. */
  readonly requestId: RequestId;
  /** The request's `params` (unvalidated: the reader checks it). */
  readonly params: unknown;
}

/** A JSON-RPC response (a `result` or an `error`) with a string or number id. */
export interface FoundResponse {
  /** 1-based line of the response. */
  readonly line: number;
  /** Its id. */
  readonly id: string | number;
  /** Whether it carries `result` (else `error`). */
  readonly isResult: boolean;
  /** The value of `result` or `error` (unvalidated). */
  readonly body: unknown;
}

/** A line that could not be read, and why. */
export interface BadLine {
  /** 1-based line number. */
  readonly line: number;
  /** 1-based column (in characters) of the first character that is not JSON, where one is known. */
  readonly column: number | null;
  /** What is wrong, in a few words (never the line's text). */
  readonly problem: string;
}

/** What {@link forEachMessage} hands over, in input order. */
interface MessageVisitor {
  /** A `session/prompt` request, or a bare params object. */
  prompt(found: FoundPrompt): void;
  /** A request of another method with an id (either direction): its response is no prompt's answer. */
  otherRequest(id: string | number): void;
  /** A response; returns whether it answered a prompt (else it is counted as skipped). */
  response(found: FoundResponse): boolean;
  /** A line that is not a JSON value. */
  badLine(bad: BadLine): void;
}

/** What the input held, besides its prompts. */
interface InputSummary {
  /** JSON values that were other methods, or responses to no prompt, skipped. */
  readonly skipped: number;
}

/**
 * The longest line accepted: 32 MiB, the ACP SDK's own message limit (`DEFAULT_MAX_MESSAGE_BYTES`),
 * so nothing a transport accepted is refused. Not imported: the command must run without the SDK.
 */
const MAX_LINE_BYTES = 32 * 1024 * 1024;

const NEWLINE = 0x0a;

/** `line N[, column M]: problem`, the way the command names a place in its input. */
export function describeBadLine(bad: BadLine): string {
  const column = bad.column === null ? '' : `, column ${String(bad.column)}`;
  return `line ${String(bad.line)}${column}: ${bad.problem}`;
}

/**
 * Splits and parses `bytes`, handing every prompt, response and bad line to `visitor` in input
 * order. A single JSON document (even pretty-printed) is one value at its first line; otherwise
 * every non-blank line should be one JSON value, and a line that is not is handed over as bad.
 * Lines are parsed one at a time and not kept, so a large capture is never held as parsed values
 * all at once. Throws a {@link CliError} only when there is nothing to read: the input is empty,
 * holds no JSON value, or is one value that is no ACP message.
 */
export function forEachMessage(
  bytes: Uint8Array,
  visitor: MessageVisitor,
  maxLineBytes: number = MAX_LINE_BYTES,
): InputSummary {
  const lines = new InputLines(bytes, maxLineBytes);
  const { buffer, clean, last } = lines;
  let first = 0;
  while (first <= last && lines.blank(first)) first++;
  if (first > last) throw new CliError('the input is empty: give a JSON-RPC request, params, or an NDJSON capture');

  let skipped = 0;
  let values = 0;
  let bad = 0;
  let firstValue: unknown;
  let firstBad: BadLine | undefined;
  let firstUnreadable: BadLine | undefined;
  const take = (line: number, value: unknown): void => {
    if (values++ === 0) firstValue = value;
    if (!dispatch(value, line, visitor)) skipped++;
  };
  const report = (problem: BadLine): void => {
    bad++;
    firstBad ??= problem;
    visitor.badLine(problem);
  };

  const head = lines.unreadable(first) === undefined ? tryParse(lines.text(first)) : undefined;
  const whole = head === undefined && clean && lines.allWithinBound();
  const document = whole ? tryParse(buffer.toString('utf8')) : undefined;
  if (document !== undefined) {
    // One (pretty-printed) document: its value is at its first line.
    take(first + 1, document.value);
  } else {
    for (let index = first; index <= last; index++) {
      if (index === first && head !== undefined) {
        take(first + 1, head.value);
        continue;
      }
      const problem = lines.unreadable(index);
      if (problem !== undefined) {
        const unread = { line: index + 1, column: null, problem };
        firstUnreadable ??= unread;
        report(unread);
        continue;
      }
      const text = lines.text(index);
      if (text.trim() === '') continue;
      const parsed = tryParse(text);
      if (parsed === undefined) report(lineProblem(text, index + 1, index === last));
      else take(index + 1, parsed.value);
    }
  }
  if (values === 0 && firstBad !== undefined) {
    // Nothing parsed. Several lines of text that is no JSON read better as one document broken at one place.
    const problem = bad > 1 && whole ? documentProblem(buffer.toString('utf8'), first) : (firstUnreadable ?? firstBad);
    throw new CliError(describeBadLine(problem));
  }
  if (values === 1 && skipped === 1 && bad === 0 && !isJsonRpc(firstValue)) {
    throw new CliError(`line ${String(first + 1)}: neither a JSON-RPC message nor session/prompt params`);
  }
  return { skipped };
}

/** The lines of the input: where each starts and ends, its text, and why it cannot be read, if it cannot. */
class InputLines {
  readonly buffer: Buffer;
  /** Text without NUL bytes that is all UTF-8 (the usual case): no line needs a check of its own. */
  readonly clean: boolean;
  /** The index of the last line. */
  readonly last: number;
  readonly #ends: number[];
  readonly #maxLineBytes: number;

  constructor(bytes: Uint8Array, maxLineBytes: number) {
    this.buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.clean = this.buffer.indexOf(0) < 0 && isUtf8(this.buffer);
    this.#ends = lineEnds(this.buffer);
    this.last = this.#ends.length - 1;
    this.#maxLineBytes = maxLineBytes;
  }

  #start(index: number): number {
    return index === 0 ? 0 : (this.#ends[index - 1] ?? 0) + 1;
  }

  #end(index: number): number {
    return this.#ends[index] ?? this.buffer.length;
  }

  /** Why line `index` cannot even be decoded as text, or `undefined`. */
  unreadable(index: number): string | undefined {
    const start = this.#start(index);
    const end = this.#end(index);
    if (end - start > this.#maxLineBytes) {
      return `longer than ${String(this.#maxLineBytes)} bytes (the ACP message limit)`;
    }
    if (this.clean) return undefined;
    const line = this.buffer.subarray(start, end);
    if (line.indexOf(0) >= 0) return 'binary data (a NUL byte), not JSON text';
    if (!isUtf8(line)) return 'binary data (not UTF-8), not JSON text';
    return undefined;
  }

  /** The text of line `index`. */
  text(index: number): string {
    return this.buffer.toString('utf8', this.#start(index), this.#end(index));
  }

  /** Whether line `index` is readable and holds only white space. */
  blank(index: number): boolean {
    return this.unreadable(index) === undefined && this.text(index).trim() === '';
  }

  /** Whether no line is longer than the bound. */
  allWithinBound(): boolean {
    return this.#ends.every((_, index) => this.#end(index) - this.#start(index) <= this.#maxLineBytes);
  }
}

/** The end offset (exclusive) of every line; the last line ends at the end of the input. */
function lineEnds(buffer: Buffer): number[] {
  const ends: number[] = [];
  let start = 0;
  while (start <= buffer.length) {
    let end = buffer.indexOf(NEWLINE, start);
    if (end < 0) end = buffer.length;
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

/** Whether the first character of `text` after white space may start a JSON value. */
function startsLikeJson(text: string): boolean {
  const first = text[text.search(/\S/)];
  return first !== undefined && '{["-0123456789tfn'.includes(first);
}

/** Why one line of a capture is not JSON, and where. */
function lineProblem(text: string, line: number, last: boolean): BadLine {
  const error = jsonSyntaxError(text) ?? { offset: 0, truncated: false };
  if (error.truncated) {
    const where = last ? ', at the end of the input' : '';
    return { line, column: null, problem: `truncated JSON (the line ends inside a value${where})` };
  }
  // A line that does not even start like JSON is most often a log line some process wrote to stdout.
  const problem = startsLikeJson(text) ? 'not JSON' : 'not JSON (plain text, e.g. a log line written to stdout)';
  return { line, column: columnOf(text, 0, error.offset), problem };
}

/** Why a multi-line input that holds no JSON value is not one document, at its line and column. */
function documentProblem(text: string, first: number): BadLine {
  const error = jsonSyntaxError(text) ?? { offset: 0, truncated: false };
  if (error.truncated) {
    return {
      line: first + 1,
      column: null,
      problem: 'truncated JSON (the input ends inside the value that starts on this line)',
    };
  }
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < error.offset; at = text.indexOf('\n', at + 1)) {
    line++;
    lineStart = at + 1;
  }
  const problem = startsLikeJson(text) ? 'not JSON' : 'not JSON (plain text)';
  return { line, column: columnOf(text, lineStart, error.offset), problem };
}

/** The 1-based column of `offset` in the line starting at `lineStart`, counting characters (code points). */
function columnOf(text: string, lineStart: number, offset: number): number {
  let column = 1;
  for (let at = lineStart; at < offset; at++) {
    const code = text.charCodeAt(at);
    // The first half of a surrogate pair starts a character; the second does not.
    if (code < 0xdc00 || code > 0xdfff) column++;
  }
  return column;
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

function idOf(value: Record<string, unknown>): string | number | null {
  const id = Object.hasOwn(value, 'id') ? value.id : null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Hands one JSON value to `visitor`; returns whether it was used (else it is skipped). Own properties only. */
function dispatch(value: unknown, line: number, visitor: MessageVisitor): boolean {
  if (!isObject(value)) return false;
  if (Object.hasOwn(value, 'method')) {
    const requestId = idOf(value);
    if (value.method !== 'session/prompt') {
      if (requestId !== null) visitor.otherRequest(requestId);
      return false;
    }
    visitor.prompt({ line, requestId, params: Object.hasOwn(value, 'params') ? value.params : undefined });
    return true;
  }
  const isResult = Object.hasOwn(value, 'result');
  if (isResult || Object.hasOwn(value, 'error')) {
    const id = idOf(value);
    if (id === null) return false;
    return visitor.response({ line, id, isResult, body: isResult ? value.result : value.error });
  }
  if (Object.hasOwn(value, 'prompt') || Object.hasOwn(value, '_meta')) {
    visitor.prompt({ line, requestId: null, params: value });
    return true;
  }
  return false;
}
