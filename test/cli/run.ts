/**
 * Runs the `buzz-meta` command in process (the same `main` the bin calls) with captured
 * stdout/stderr, a given stdin and environment.
 */
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';

/** What one run printed and returned. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `buzz-meta ...argv`; `stdin` as bytes or text (`null`: a terminal, nothing piped). */
export async function runCli(
  argv: readonly string[],
  stdin: Uint8Array | string | null = null,
  env: Readonly<Record<string, string>> = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    // `inspect --json` prints UTF-8 bytes, everything else text.
    writeOut: (text) => (stdout += typeof text === 'string' ? text : Buffer.from(text).toString('utf8')),
    writeErr: (text) => (stderr += text),
    openStdin: () => (stdin === null ? null : Readable.from([typeof stdin === 'string' ? Buffer.from(stdin) : stdin])),
    env,
    relayStdio: () => ({ stdin: new PassThrough(), stdout: new PassThrough(), agentStderr: 'inherit' }),
  });
  return { code, stdout, stderr };
}
