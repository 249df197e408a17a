/**
 * Reads what `inspect` and `verify` are given, a file or stdin, as a stream with a bound: the
 * input is held whole (input.ts reads it as one value or as lines), so it is refused as soon as
 * it passes the bound, after at most one chunk more, never read to its end first. A stream also
 * waits for a slow producer, where a synchronous read of a non-blocking pipe fails.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { printable } from '../shared/utf16.js';
import { CliError } from './cli-error.js';

/**
 * The most input held: 256 MiB, eight ACP messages of the largest size (input.ts `MAX_LINE_BYTES`)
 * and far more ordinary prompts than a capture worth reading at once; a larger one is split first.
 */
const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/**
 * All of `chunks`, or a {@link CliError} once they pass `maxBytes` (the source is then closed,
 * unread) or when reading fails. `name` names the source in the one-line message.
 */
export async function readBounded(
  chunks: AsyncIterable<Uint8Array>,
  name: string,
  maxBytes: number = MAX_INPUT_BYTES,
): Promise<Uint8Array> {
  const held: Buffer[] = [];
  let total = 0;
  try {
    // Leaving the loop early (the throw below) destroys the stream: nothing more is read.
    for await (const chunk of chunks) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      total += bytes.byteLength;
      if (total > maxBytes) throw tooLarge(name, maxBytes);
      held.push(bytes);
    }
  } catch (error) {
    // Node's errors for a source that cannot be read carry a code (ENOENT, EISDIR, EACCES…).
    const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
    if (typeof code === 'string') throw new CliError(unreadable(name, code));
    throw error;
  }
  return Buffer.concat(held, total);
}

/**
 * All of file `path`, read as {@link readBounded} reads a stream. A regular file says its size, so
 * one larger than the bound is refused before a byte of it is read; any other (a device, a FIFO,
 * `/proc`) is refused once it has sent more.
 */
export async function readFileBounded(path: string, maxBytes: number = MAX_INPUT_BYTES): Promise<Uint8Array> {
  const size = await stat(path).then(
    (info) => (info.isFile() ? info.size : 0),
    // The read below reports what stat ran into (ENOENT, EACCES, a bad path).
    () => 0,
  );
  if (size > maxBytes) throw tooLarge(path, maxBytes);
  return readBounded(fileChunks(path), path, maxBytes);
}

/** Chunks of a file: large, so a big capture is few reads; small next to the bound it may pass it by. */
const FILE_CHUNK_BYTES = 1024 * 1024;

/** The chunks of file `path` as a stream; every error (ENOENT, a bad path) arrives on the first read. */
async function* fileChunks(path: string): AsyncGenerator<Uint8Array> {
  yield* createReadStream(path, { highWaterMark: FILE_CHUNK_BYTES });
}

/** The longest file name printed whole. */
const MAX_NAME = 1024;

/** What a person reads for the system error `code` on `name`; the code itself only where no words are known. */
const READ_ERRORS: Readonly<Record<string, (name: string) => string>> = {
  ENOENT: (name) => `no such file: ${name}`,
  ENOTDIR: (name) => `no such file: ${name} (a part of the path is not a directory)`,
  EISDIR: (name) => `${name} is a directory: give a file`,
  EACCES: (name) => `permission denied: ${name}`,
  EPERM: (name) => `permission denied: ${name}`,
  ELOOP: (name) => `${name}: too many symbolic links`,
  ENAMETOOLONG: (name) => `file name too long: ${name}`,
  // Node's code for a path holding a NUL character.
  ERR_INVALID_ARG_VALUE: (name) => `not a valid file name: ${name}`,
};

function unreadable(name: string, code: string): string {
  const words = Object.hasOwn(READ_ERRORS, code) ? READ_ERRORS[code] : undefined;
  // A file name is the user's own, but may still hold characters a terminal acts on.
  const shown = printable(name, MAX_NAME);
  return words === undefined ? `cannot read ${shown} (${code})` : words(shown);
}

function tooLarge(name: string, maxBytes: number): CliError {
  return new CliError(
    `${printable(name, MAX_NAME)}: more than ${String(maxBytes)} bytes, the most the command reads (split the input)`,
  );
}
