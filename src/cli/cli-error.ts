/**
 * The command's one error type: a sentence for stderr and the exit code scripts rely on
 * (1 a check failed, 2 usage or input error). Messages name line numbers, never input text.
 */

/** Exit codes of the `buzz-meta` command. */
export const EXIT = { ok: 0, checkFailed: 1, usage: 2 } as const;

/** An error the command reports on one line of stderr, then exits with `exitCode`. */
export class CliError extends Error {
  /** Always `'CliError'`. */
  override readonly name = 'CliError';
  /** The process exit code. */
  readonly exitCode: number;

  /** An error with its exit code (default 2: usage or input). */
  constructor(message: string, exitCode: number = EXIT.usage) {
    super(message);
    this.exitCode = exitCode;
  }
}
