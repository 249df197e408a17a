/**
 * Newline-delimited JSON-RPC, split with a bound: a line longer than the bound is never held
 * whole. Its first bytes and its last few are kept (enough to find the request it answers) and
 * the rest is dropped as it streams past.
 */

/** One complete line, as it arrived. */
export interface Line {
  readonly kind: 'line';
  /** The line without its `\n` (a `\r` before it stays: JSON counts it as white space). */
  readonly bytes: Buffer;
  /** The line with its `\n`: what is forwarded when the line passes unchanged. */
  readonly raw: Buffer;
}

/** A line longer than the bound, of which only its ends were kept. */
export interface LongLine {
  readonly kind: 'too-long';
  /** Its first bytes. */
  readonly head: Buffer;
  /** Its last bytes. */
  readonly tail: Buffer;
  /** Its whole length in bytes, without the `\n`. */
  readonly length: number;
}

/** How much of a line too long to hold is kept at each end. */
const KEPT_HEAD_BYTES = 64 * 1024;
const KEPT_TAIL_BYTES = 256;
const NEWLINE = 0x0a;
const NEWLINE_BYTES = Buffer.from('\n');

/** The last `KEPT_TAIL_BYTES` of `tail` followed by `piece`. */
function keepTail(tail: Buffer, piece: Buffer): Buffer {
  if (piece.length >= KEPT_TAIL_BYTES) return Buffer.from(piece.subarray(piece.length - KEPT_TAIL_BYTES));
  const joined = Buffer.concat([tail, piece]);
  return joined.subarray(Math.max(0, joined.length - KEPT_TAIL_BYTES));
}

/** Splits chunks into lines of at most `maxBytes` bytes; each chunk is scanned once. */
export class LineSplitter {
  readonly #maxBytes: number;
  #parts: Buffer[] = [];
  #size = 0;
  /** Set while a line longer than the bound streams past. */
  #long: { head: Buffer; tail: Buffer; length: number } | undefined;

  /** A splitter for lines of at most `maxBytes` bytes (without the `\n`). */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** The complete lines `chunk` ends; the rest waits for the next chunk. */
  *push(chunk: Buffer): Generator<Line | LongLine> {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
      if (this.#size === 0 && this.#long === undefined && end - start <= this.#maxBytes) {
        // The common case: a whole line inside one chunk, forwarded without a copy.
        yield { kind: 'line', bytes: chunk.subarray(start, end), raw: chunk.subarray(start, end + 1) };
      } else {
        this.#add(chunk.subarray(start, end));
        yield this.#take();
      }
      start = end + 1;
    }
    if (start < chunk.length) this.#add(chunk.subarray(start));
  }

  /** The last line when the input ended without a `\n`, if any. */
  flush(): Line | LongLine | undefined {
    return this.#size === 0 && this.#long === undefined ? undefined : this.#take();
  }

  #add(piece: Buffer): void {
    const long = this.#long;
    if (long !== undefined) {
      if (long.head.length < KEPT_HEAD_BYTES) {
        long.head = Buffer.concat([long.head, piece.subarray(0, KEPT_HEAD_BYTES - long.head.length)]);
      }
      long.tail = keepTail(long.tail, piece);
      long.length += piece.length;
      return;
    }
    if (this.#size + piece.length <= this.#maxBytes) {
      this.#parts.push(piece);
      this.#size += piece.length;
      return;
    }
    const held = Buffer.concat([...this.#parts, piece]);
    this.#long = {
      head: Buffer.from(held.subarray(0, KEPT_HEAD_BYTES)),
      tail: keepTail(Buffer.alloc(0), held),
      length: held.length,
    };
    this.#parts = [];
    this.#size = 0;
  }

  #take(): Line | LongLine {
    const long = this.#long;
    if (long !== undefined) {
      this.#long = undefined;
      return { kind: 'too-long', head: long.head, tail: long.tail, length: long.length };
    }
    const raw = Buffer.concat([...this.#parts, NEWLINE_BYTES], this.#size + 1);
    this.#parts = [];
    this.#size = 0;
    return { kind: 'line', bytes: raw.subarray(0, raw.length - 1), raw };
  }
}
