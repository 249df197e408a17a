/**
 * A text and its lines. Structure is read line by line, but content is taken as one slice of the
 * text (not lines joined again). Line offsets are computed on first use only: a block that holds
 * no event (the context section, a user message) never needs them.
 */

/** The text of one prompt block (or of a one-string prompt) and its `\n`-separated lines. */
export class LineText {
  /** The lines, without their `\n`. */
  readonly lines: readonly string[];
  /** Offset of each line's first character, plus one past the end (a string is shorter than 2^31). */
  private starts: Int32Array | undefined;

  /** Splits `text` into lines. */
  constructor(readonly text: string) {
    this.lines = text.split('\n');
  }

  /** Offset of line `index`'s first character (`index` may be the line count: one past the end). */
  start(index: number): number {
    return (this.starts ?? this.offsets())[index] ?? Number.NaN;
  }

  /** Lines `from` (inclusive) to `to` (exclusive, `to > from`) as the text has them: joined with `\n`. */
  slice(from: number, to: number): string {
    return this.text.slice(this.start(from), this.start(to) - 1);
  }

  /**
   * The indexes of the lines after `from` that start with `prefix`, in order. A test of each
   * line's first character, not a search of the text: lines are already split, and most fail
   * on that one character.
   */
  linesStartingWith(prefix: string, from: number): number[] {
    // The offsets are wanted next (content is sliced by them): the first search takes them too.
    if (this.starts === undefined) this.offsets();
    const found: number[] = [];
    const lines = this.lines;
    const first = prefix.charCodeAt(0);
    for (let index = from + 1; index < lines.length; index++) {
      const line = lines[index] as string;
      if (line.charCodeAt(0) === first && line.startsWith(prefix)) found.push(index);
    }
    return found;
  }

  private offsets(): Int32Array {
    const lines = this.lines;
    const starts = new Int32Array(lines.length + 1);
    let offset = 0;
    for (let index = 0; index < lines.length; index++) {
      offset += (lines[index] as string).length + 1;
      starts[index + 1] = offset;
    }
    this.starts = starts;
    return starts;
  }
}
