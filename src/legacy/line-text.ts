/**
 * A text and its lines. Structure is read line by line, but content is taken as one slice of the
 * text (not lines joined again), so a 1 MB message costs one split.
 *
 * Line offsets are found by walking from the last one asked for, not from a table built up front
 * (allocating that table cost more than reading a 10 KB prompt's events). Readers ask in line
 * order, so the walks add up to one pass over the text; the few jumps back (a second candidate
 * sequence in a one-string prompt, the start of a content being hashed) are each bounded by text
 * already read or hashed, so the total stays linear.
 */

/** The text of one prompt block (or of a one-string prompt) and its `\n`-separated lines. */
export class LineText {
  /** The lines, without their `\n`. */
  readonly lines: readonly string[];
  /** The line whose offset was asked for last, and that offset. */
  private cursorLine = 0;
  private cursorOffset = 0;

  /** Splits `text` into lines. */
  constructor(readonly text: string) {
    this.lines = text.split('\n');
  }

  /** Offset of line `index`'s first character (`index` may be the line count: one past the end). */
  start(index: number): number {
    const lines = this.lines;
    let line = this.cursorLine;
    let offset = this.cursorOffset;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator,BlockStatement: either walk gives the same offset
    if (index < line - index) {
      // Closer to the start than to the cursor.
      line = 0;
      offset = 0;
    }
    for (; line < index; line++) offset += (lines[line] ?? '').length + 1;
    for (; line > index; line--) offset -= (lines[line - 1] ?? '').length + 1;
    this.cursorLine = line;
    this.cursorOffset = offset;
    return offset;
  }

  /** Lines `from` (inclusive) to `to` (exclusive, `to > from`) as the text has them: joined with `\n`. */
  slice(from: number, to: number): string {
    return this.text.slice(this.start(from), this.start(to) - 1);
  }

  /**
   * The indexes of the lines after `from` that start with `prefix`, in order: a test of each
   * line's first character (most fail there), not a search of the text.
   */
  linesStartingWith(prefix: string, from: number): number[] {
    // Stryker disable next-line ArrayDeclaration: a non-number entry reads as a line with no tags
    const found: number[] = [];
    const lines = this.lines;
    const first = prefix.charCodeAt(0);
    for (let index = from + 1; ; index++) {
      const line = lines[index];
      if (line === undefined) return found;
      // Stryker disable next-line ConditionalExpression: the first-character test only saves time
      if (line.charCodeAt(0) === first && line.startsWith(prefix)) found.push(index);
    }
  }
}
