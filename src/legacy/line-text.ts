/**
 * A text and its lines. Structure is read line by line, but content is taken as one slice of the
 * text (not lines joined again), and lines that start with a given prefix are found with
 * `indexOf` over the text instead of a test of every line: a 1 MB message costs one split.
 */

/** The text of one prompt block (or of a one-string prompt) and its `\n`-separated lines. */
export class LineText {
  /** The lines, without their `\n`. */
  readonly lines: readonly string[];
  /** Offset of each line's first character, plus one past the end (computed on first use). */
  private starts: number[] | undefined;

  /** Splits `text` into lines. */
  constructor(readonly text: string) {
    this.lines = text.split('\n');
  }

  /** Offset of line `index`'s first character (`index` may be the line count: one past the end). */
  start(index: number): number {
    if (this.starts === undefined) {
      const starts = [0];
      let offset = 0;
      for (const line of this.lines) {
        offset += line.length + 1;
        starts.push(offset);
      }
      this.starts = starts;
    }
    return this.starts[index] ?? Number.NaN;
  }

  /** Lines `from` (inclusive) to `to` (exclusive, `to > from`) as the text has them: joined with `\n`. */
  slice(from: number, to: number): string {
    return this.text.slice(this.start(from), this.start(to) - 1);
  }

  /** The indexes of the lines at or after `from` that start with `prefix`, in order. */
  linesStartingWith(prefix: string, from: number): number[] {
    const found: number[] = [];
    const needle = '\n' + prefix;
    let line = from;
    if (this.lines[from]?.startsWith(prefix) === true) found.push(from);
    let offset = this.text.indexOf(needle, this.start(from));
    while (offset !== -1) {
      // The line after the `\n` at `offset`: advance to it (offsets only grow, so this walk is linear).
      while (this.start(line + 1) <= offset) line++;
      found.push(line + 1);
      offset = this.text.indexOf(needle, offset + 1);
    }
    return found;
  }
}
