/**
 * A text read line by line without splitting it. A line is named by the offset of its first
 * character; the lines are those of `text.split('\n')`, and `end` (one past the text) names "no
 * line", as an index past the last one did. Readers move from a line to the next with one
 * `indexOf('\n')` and test a line in place (`startsWith` at its offset), so only the lines that
 * are actually read become strings: a message of 50k short lines full of forged separators costs
 * a scan, not 50k allocations. Content is taken as one slice of the text.
 */

/** The text of one prompt block (or of a one-string prompt), addressed by line offsets. */
export class LineText {
  /** One past the last line: the offset that names no line. */
  readonly end: number;

  /** Wraps `text`; nothing is computed up front. */
  constructor(readonly text: string) {
    this.end = text.length + 1;
  }

  /** The line at `at`, without its `\n`; `undefined` past the last line. */
  line(at: number): string | undefined {
    return at < this.end ? this.text.slice(at, this.lineEnd(at)) : undefined;
  }

  /** Where the line at `at` ends: its `\n`, or the end of the text. */
  lineEnd(at: number): number {
    const newline = this.text.indexOf('\n', at);
    return newline === -1 ? this.text.length : newline;
  }

  /** The line after the line at `at` (`end` after the last line, and from `end` on). */
  next(at: number): number {
    // From `end`, indexOf finds nothing and lineEnd is the text's length: `end` again.
    return this.lineEnd(at) + 1;
  }

  /** The line before the line at `at` (`at` a line after the first, or `end` for the last line). */
  previous(at: number): number {
    // lastIndexOf reads a negative start as 0, where a `\n` would be the wrong answer.
    return at < 2 ? 0 : this.text.lastIndexOf('\n', at - 2) + 1;
  }

  /** True when the line at `at` exists and is empty. */
  isBlank(at: number): boolean {
    // Past the text, charCodeAt is NaN.
    return at === this.text.length || this.text.charCodeAt(at) === 10;
  }

  /** True when the line at `at` (a line, not `end`) comes right after an empty line. */
  followsBlank(at: number): boolean {
    // A line at offset 1 follows the empty line 0; later, the `\n` before the previous one ends an empty line
    // (at 0, charCodeAt(-2) is NaN).
    return at === 1 || this.text.charCodeAt(at - 2) === 10;
  }

  /** True when the line at `at` starts with `prefix` (not empty, no `\n`: a match cannot run past the line). */
  startsWith(at: number, prefix: string): boolean {
    // From `end`, startsWith reads at the text's length, where a non-empty prefix does not match.
    return this.text.startsWith(prefix, at);
  }

  /** True when the line at `at` is exactly `value` (not empty, no `\n`). */
  is(at: number, value: string): boolean {
    const after = at + value.length;
    // Past the text, charCodeAt is NaN.
    return this.text.startsWith(value, at) && (after === this.text.length || this.text.charCodeAt(after) === 10);
  }

  /** Lines `from` (inclusive) to `to` (exclusive, a later line or `end`) as the text has them: joined with `\n`. */
  slice(from: number, to: number): string {
    return this.text.slice(from, to - 1);
  }

  /**
   * The first line after offset `after` that starts with `prefix` (not empty, no `\n`), or -1: an
   * `indexOf` of the prefix, each hit kept if a `\n` comes right before it. Called in a loop, it
   * lists such lines in order without building a list (a flood of them allocates nothing).
   */
  nextLineStartingWith(prefix: string, after: number): number {
    // Not `indexOf('\n' + prefix)`: V8 finds a pattern by its first character, and a `\n` starts
    // every line, so that search stops on every line; a prefix's own first character is rarer.
    for (let at = this.text.indexOf(prefix, after + 1); at !== -1; at = this.text.indexOf(prefix, at + 1)) {
      if (this.text.charCodeAt(at - 1) === 10) return at;
    }
    return -1;
  }

  /**
   * {@link next}, for a line that is often short (a `Tags: []` line): its first characters are
   * looked at in place before one `indexOf`. This runs for every `Tags:` line, forged ones
   * included, and a call costs more than reading the few characters of a short line.
   */
  nextOfShort(at: number): number {
    const stop = Math.min(at + SHORT_LINE, this.text.length);
    for (let i = at; i < stop; i++) {
      if (this.text.charCodeAt(i) === 10) return i + 1;
    }
    // No `\n` before `stop`: the line's end is at or after it.
    return this.next(stop);
  }
}

/** How many characters {@link LineText.nextOfShort} reads in place. */
const SHORT_LINE = 32;
