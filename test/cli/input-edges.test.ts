/**
 * The edges of reading `inspect`'s input: where binary data is reported (first byte, last line,
 * after blank lines), the line-length bound counted in bytes on every line, which values are
 * other traffic (null, primitives, responses that also carry prompt keys), and when a lone value
 * is refused.
 */
import { describe, expect, test } from 'vitest';
import { type FoundPrompt, forEachPrompt } from '../../src/cli/input.js';
import { runCli } from './run.js';

/** The one-line error `inspect` gives for `input` (exit 2, nothing on stdout). */
async function failure(input: Uint8Array | string): Promise<string> {
  const run = await runCli(['inspect', '--json'], input);
  expect([run.code, run.stdout]).toEqual([2, '']);
  return run.stderr;
}

/** The lines of the prompts found and the number of values skipped. */
function found(input: string, maxLineBytes?: number): { lines: number[]; skipped: number } {
  const prompts: FoundPrompt[] = [];
  const { skipped } = forEachPrompt(Buffer.from(input), (prompt) => prompts.push(prompt), maxLineBytes);
  return { lines: prompts.map((prompt) => prompt.line), skipped };
}

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

describe('binary input: the line it starts on', () => {
  test('a NUL byte as the very first byte, and after blank lines', async () => {
    expect(await failure(bytes([0], '{}\n'))).toBe('buzz-meta: line 1: binary data (a NUL byte), not JSON text\n');
    expect(await failure(bytes('\n\n', [0]))).toBe('buzz-meta: line 3: binary data (a NUL byte), not JSON text\n');
  });

  test('bytes that are not UTF-8: on the first line, on an unterminated last line, after an empty first line', async () => {
    const notUtf8 = (line: number) => `buzz-meta: line ${String(line)}: binary data (not UTF-8), not JSON text\n`;
    expect(await failure(bytes([0xff], '\n{}\n'))).toBe(notUtf8(1));
    expect(await failure(bytes('{}\n{}\n', [0xc3]))).toBe(notUtf8(3));
    expect(await failure(bytes('\n', [0xff], '\n'))).toBe(notUtf8(2));
    expect(await failure(bytes('{}\n', [0xe2, 0x82], '\n{}'))).toBe(notUtf8(2));
  });
});

describe('the line bound, in bytes, on every line', () => {
  test('a line of exactly the bound is read, one byte more is refused, whichever line it is', () => {
    expect(found('{"prompt":[]}\n[1234567]\n', 13)).toEqual({ lines: [1], skipped: 1 });
    expect(found('[1]\n{"prompt":[]}', 13)).toEqual({ lines: [2], skipped: 1 });
    expect(() => found('[1]\n[123456789012]\n', 13)).toThrow('line 2: longer than 13 bytes (the ACP message limit)');
    expect(() => found('[12345678901]', 12)).toThrow('line 1: longer than 12 bytes (the ACP message limit)');
  });

  test('bytes, not characters: 6 characters of 2 bytes make a line of 16', () => {
    expect(found('["éééééé"]\n{"prompt":[]}', 16)).toEqual({ lines: [2], skipped: 1 });
    expect(() => found('["éééééé"]\n{"prompt":[]}', 15)).toThrow(
      'line 1: longer than 15 bytes (the ACP message limit)',
    );
  });
});

describe('what is a prompt and what is other traffic', () => {
  test('null, numbers, strings and booleans are skipped; a lone one is refused', async () => {
    expect(found('null\n5\n"s"\ntrue\n{"prompt":[]}\n')).toEqual({ lines: [5], skipped: 4 });
    expect(await failure('null')).toBe('buzz-meta: line 1: neither a JSON-RPC message nor session/prompt params\n');
  });

  test('a response or error that also carries prompt or _meta keys is a response', () => {
    expect(found('{"id":1,"result":{},"prompt":[]}\n{"id":2,"error":{},"_meta":{}}\n{"prompt":[]}')).toEqual({
      lines: [3],
      skipped: 2,
    });
  });

  test('a lone JSON-RPC error response is skipped, not refused', async () => {
    const run = await runCli(['inspect'], '{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"x"}}');
    expect(run).toEqual({ code: 0, stdout: '0 prompts, 0 failed to read, 1 other message skipped\n', stderr: '' });
  });

  test('one value that is no ACP message next to a prompt is skipped, not refused', () => {
    expect(found('[1]\n{"prompt":[]}\n')).toEqual({ lines: [2], skipped: 1 });
    expect(found('{"prompt":[]}\n[1]\n')).toEqual({ lines: [1], skipped: 1 });
  });
});

describe('truncated lines', () => {
  test('only a cut last line without a newline is "at the end of the input"', async () => {
    expect(await failure('{}\n{"a":')).toBe(
      'buzz-meta: line 2: truncated JSON (the line ends inside a value, at the end of the input)\n',
    );
    expect(await failure('{}\n{"a":\n')).toBe('buzz-meta: line 2: truncated JSON (the line ends inside a value)\n');
    expect(await failure('{}\n{"a":\n{}\n')).toBe('buzz-meta: line 2: truncated JSON (the line ends inside a value)\n');
    expect(await failure('{}\n{"a" 1}\n')).toBe('buzz-meta: line 2: not JSON\n');
  });
});
