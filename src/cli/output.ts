/**
 * The output of `inspect --json`, collected as UTF-8 bytes in large buffers outside the JS heap.
 * Thousands of report strings kept until the end would be copied by every garbage collection on
 * the way; bytes are not, and stdout takes them as they are, buffer by buffer (never joined: that
 * would copy the whole output once more).
 */

/** Default size of one buffer: large enough that a capture needs few, small enough to waste little. */
const CHUNK_BYTES = 1 << 20;

/** Text appended as lines, kept as UTF-8 bytes. */
export class OutputLines {
  readonly #chunkBytes: number;
  readonly #full: Buffer[] = [];
  #current: Buffer;
  #used = 0;

  /** Lines are gathered in buffers of `chunkBytes` (a longer line gets a buffer of its own size). */
  constructor(chunkBytes: number = CHUNK_BYTES) {
    this.#chunkBytes = chunkBytes;
    this.#current = Buffer.allocUnsafe(chunkBytes);
  }

  /** Appends `text` and a newline. */
  push(text: string): void {
    // A UTF-16 code unit never takes more than 3 bytes of UTF-8 (a surrogate pair takes 4 for 2).
    const most = text.length * 3 + 1;
    if (this.#used + most > this.#current.length) {
      this.#full.push(this.#current.subarray(0, this.#used));
      this.#current = Buffer.allocUnsafe(Math.max(this.#chunkBytes, most));
      this.#used = 0;
    }
    this.#used += this.#current.write(text, this.#used);
    this.#current[this.#used++] = NEWLINE;
  }

  /** Every line pushed so far, in order, as a few byte arrays (no line is split between two). */
  chunks(): readonly Uint8Array[] {
    return [...this.#full, this.#current.subarray(0, this.#used)];
  }
}

const NEWLINE = 0x0a;
