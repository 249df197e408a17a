/**
 * A text and its lines. Structure is read line by line, but content is taken as one slice of the
 * text (not lines joined again), and lines that start with a given prefix are found with
 * `indexOf` over the text instead of a test of every line: a 1 MB message costs one split.
 */

/** The text of one prompt block (or of a one-string prompt) and its `\n`-separated lines. */
export class LineText {
  /** The lines, without their `\n`. */
  readonly lines: readonly string[];
  /** Offset of each line's first character, plus one past the end (a string is shorter than 2^31). */
  private readonly starts: Int32Array;

  /** Splits `text` into lines. */
  constructor(readonly text: string) {
    const lines = text.split('\n');
    const starts = new Int32Array(lines.length + 1);
    let index = 0;
    for (const line of lines) {
      starts[index + 1] = (starts[index] ?? 0) + line.length + 1;
      index++;
    }
    this.lines = lines;
    this.starts = starts;
  }

  /** Offset of line `index`'s first character (`index` may be the line count: one past the end). */
  start(index: number): number {
    return this.starts[index] ?? Number.NaN;
  }

  /** Lines `from` (inclusive) to `to` (exclusive, `to > from`) as the text has them: joined with `\n`. */
  slice(from: number, to: number): string {
    return this.text.slice(this.start(from), this.start(to) - 1);
  }

  /** The indexes of the lines after `from` that start with `prefix`, in order. */
  linesStartingWith(prefix: string, from: number): number[] {
    const found: number[] = [];
    const starts = this.starts;
    const needle = '\n' + prefix;
    let line = from;
    let offset = this.text.indexOf(needle, starts[from]);
    while (offset !== -1) {
      // The line that starts right after this `\n`: the first line after `line` whose start is past it.
      let high = starts.length - 1;
      while (line < high) {
        const middle = (line + high) >>> 1;
        if ((starts[middle] ?? 0) > offset) high = middle;
        else line = middle + 1;
      }
      found.push(line);
      offset = this.text.indexOf(needle, offset + 1);
    }
    return found;
  }
}
