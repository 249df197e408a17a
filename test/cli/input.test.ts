/**
 * What `inspect` finds in its input, beyond the recorded capture: which JSON values are prompts,
 * which are other traffic (skipped and counted), which line a prompt is reported at, and when a
 * lone value is refused; where binary data is reported (first byte, last line, after blank lines)
 * and the line-length bound counted in bytes on every line. Exact output, through the same `main`
 * the executable runs.
 */
import { describe, expect, test } from 'vitest';
import { type BadLine, type FoundPrompt, describeBadLine, forEachMessage } from '../../src/cli/input.js';
import { runCli } from './run.js';

const PARAMS = '{"sessionId":"s","prompt":[]}';
const NO_CONTEXT = {
  code: 'no_buzz_context',
  path: '/_meta/buzz',
  message: 'the request has no _meta.buzz, and its prompt text has no Buzz event block',
};

/** The `--json` reports of `input`, parsed, and the table's last line. */
async function inspect(input: string): Promise<{ reports: unknown[]; summary: string | undefined }> {
  const json = await runCli(['inspect', '--json'], input);
  const table = await runCli(['inspect'], input);
  expect([json.code, json.stderr, table.code, table.stderr]).toEqual([0, '', 0, '']);
  const reports =
    json.stdout === ''
      ? []
      : json.stdout
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line) as unknown);
  return { reports, summary: table.stdout.trimEnd().split('\n').at(-1) };
}

describe('inspect: prompts and other traffic', () => {
  test('responses, errors and other methods are skipped and counted; a lone one is no error', async () => {
    expect(await inspect('{"jsonrpc":"2.0","id":1,"result":{}}')).toEqual({
      reports: [],
      summary: '0 prompts, 0 failed to read, 1 other message skipped',
    });
    expect(await inspect('{"jsonrpc":"2.0","method":"session/update","params":{}}\n')).toEqual({
      reports: [],
      summary: '0 prompts, 0 failed to read, 1 other message skipped',
    });
    expect(await inspect('{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}\n{"prompt":[]}\n')).toEqual({
      reports: [{ line: 2, requestId: null, ok: false, error: NO_CONTEXT, answer: null }],
      summary: '1 prompt, 1 failed to read, 1 other message skipped',
    });
  });

  test('several values that are no ACP message are skipped; only a lone one is refused', async () => {
    expect(await inspect('[1]\n[2]\n')).toEqual({
      reports: [],
      summary: '0 prompts, 0 failed to read, 2 other messages skipped',
    });
    expect(await runCli(['inspect'], '{}')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: line 1: neither a JSON-RPC message nor session/prompt params\n',
    });
  });

  test('a bare params object is a prompt when it has prompt or _meta', async () => {
    expect(await inspect('{"_meta":{}}')).toEqual({
      reports: [{ line: 1, requestId: null, ok: false, error: NO_CONTEXT, answer: null }],
      summary: '1 prompt, 1 failed to read',
    });
  });

  test('request ids: a string or a number is kept, anything else is null', async () => {
    const request = (id: string) => `{"jsonrpc":"2.0","id":${id},"method":"session/prompt","params":${PARAMS}}`;
    const { reports } = await inspect([request('"a"'), request('7'), request('{"x":1}'), request('null')].join('\n'));
    expect(reports).toEqual([
      { line: 1, requestId: 'a', ok: false, error: NO_CONTEXT, answer: null },
      { line: 2, requestId: 7, ok: false, error: NO_CONTEXT, answer: null },
      { line: 3, requestId: null, ok: false, error: NO_CONTEXT, answer: null },
      { line: 4, requestId: null, ok: false, error: NO_CONTEXT, answer: null },
    ]);
  });

  test('a session/prompt without params reads as invalid params', async () => {
    expect(await inspect('{"jsonrpc":"2.0","id":"a","method":"session/prompt"}')).toEqual({
      reports: [
        {
          line: 1,
          requestId: 'a',
          ok: false,
          error: { code: 'invalid_params', path: '', message: 'params must be a session/prompt params object' },
          answer: null,
        },
      ],
      summary: '1 prompt, 1 failed to read',
    });
  });
});

describe('inspect: lines', () => {
  test('CRLF line ends and blank lines between values keep the line numbers', async () => {
    const input = `{"jsonrpc":"2.0","id":1,"result":{}}\r\n\r\n  \r\n{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":${PARAMS}}\r\n`;
    expect(await inspect(input)).toEqual({
      reports: [{ line: 4, requestId: 2, ok: false, error: NO_CONTEXT, answer: null }],
      summary: '1 prompt, 1 failed to read, 1 other message skipped',
    });
  });

  test('a pretty-printed document after blank lines is reported at its first line', async () => {
    const input = `\n \n{\n "jsonrpc": "2.0",\n "id": 7,\n "method": "session/prompt",\n "params": ${PARAMS}\n}`;
    expect(await inspect(input)).toEqual({
      reports: [{ line: 3, requestId: 7, ok: false, error: NO_CONTEXT, answer: null }],
      summary: '1 prompt, 1 failed to read',
    });
  });

  test('a pretty-printed document that is cut: the error names its first line', async () => {
    expect(await runCli(['inspect'], '\n\n{\n  "a": [1,\n')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: line 3: truncated JSON (the input ends inside the value that starts on this line)\n',
    });
    expect(await runCli(['inspect'], '"unterminated')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: line 1: truncated JSON (the line ends inside a value, at the end of the input)\n',
    });
    expect(await runCli(['inspect'], '"unterminated\n')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: line 1: truncated JSON (the line ends inside a value)\n',
    });
  });

  test('the last line may lack its newline', async () => {
    expect(await inspect(`{"jsonrpc":"2.0","id":1,"result":{}}\n{"prompt":[]}`)).toEqual({
      reports: [{ line: 2, requestId: null, ok: false, error: NO_CONTEXT, answer: null }],
      summary: '1 prompt, 1 failed to read, 1 other message skipped',
    });
  });
});

/** The one-line error `inspect` gives for `input` (exit 2, nothing on stdout). */
async function failure(input: Uint8Array | string): Promise<string> {
  const run = await runCli(['inspect', '--json'], input);
  expect([run.code, run.stdout]).toEqual([2, '']);
  return run.stderr;
}

/** The bad lines `inspect` lists on stderr for `input`, which it reads on past them (exit 2). */
async function passedOver(input: Uint8Array | string): Promise<string[]> {
  const run = await runCli(['inspect', '--json'], input);
  expect(run.code).toBe(2);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines.at(-1)).toMatch(/^buzz-meta: skipped \d+ lines? that could not be read/);
  return lines.slice(0, -1);
}

/** The lines of the prompts found, the number of values skipped, and the bad lines (when any). */
function found(input: string, maxLineBytes?: number): { lines: number[]; skipped: number; bad?: string[] } {
  const prompts: FoundPrompt[] = [];
  const bad: BadLine[] = [];
  const visitor = {
    prompt: (prompt: FoundPrompt) => prompts.push(prompt),
    otherRequest: () => undefined,
    response: () => false,
    badLine: (line: BadLine) => bad.push(line),
  };
  const { skipped } = forEachMessage(Buffer.from(input), visitor, maxLineBytes);
  const lines = prompts.map((prompt) => prompt.line);
  return bad.length === 0 ? { lines, skipped } : { lines, skipped, bad: bad.map(describeBadLine) };
}

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

describe('binary input: the line it starts on', () => {
  test('a NUL byte as the very first byte, and after blank lines', async () => {
    expect(await failure(bytes([0], '{}\n'))).toBe('buzz-meta: line 1: binary data (a NUL byte), not JSON text\n');
    expect(await failure(bytes('\n\n', [0]))).toBe('buzz-meta: line 3: binary data (a NUL byte), not JSON text\n');
  });

  test('bytes that are not UTF-8: on the first line, on an unterminated last line, after an empty first line', async () => {
    const notUtf8 = (line: number) => `buzz-meta: line ${String(line)}: binary data (not UTF-8), not JSON text`;
    expect(await passedOver(bytes([0xff], '\n{}\n'))).toEqual([notUtf8(1)]);
    expect(await passedOver(bytes('{}\n{}\n', [0xc3]))).toEqual([notUtf8(3)]);
    expect(await failure(bytes('\n', [0xff], '\n'))).toBe(`${notUtf8(2)}\n`);
    expect(await passedOver(bytes('{}\n', [0xe2, 0x82], '\n{}'))).toEqual([notUtf8(2)]);
  });
});

describe('the line bound, in bytes, on every line', () => {
  test('a line of exactly the bound is read, one byte more is passed over, whichever line it is', () => {
    expect(found('{"prompt":[]}\n[1234567]\n', 13)).toEqual({ lines: [1], skipped: 1 });
    expect(found('[1]\n{"prompt":[]}', 13)).toEqual({ lines: [2], skipped: 1 });
    expect(found('[1]\n[123456789012]\n', 13)).toEqual({
      lines: [],
      skipped: 1,
      bad: ['line 2: longer than 13 bytes (the ACP message limit)'],
    });
    expect(() => found('[12345678901]', 12)).toThrow('line 1: longer than 12 bytes (the ACP message limit)');
  });

  test('bytes, not characters: 6 characters of 2 bytes make a line of 16', () => {
    expect(found('["éééééé"]\n{"prompt":[]}', 16)).toEqual({ lines: [2], skipped: 1 });
    expect(found('["éééééé"]\n{"prompt":[]}', 15)).toEqual({
      lines: [2],
      skipped: 0,
      bad: ['line 1: longer than 15 bytes (the ACP message limit)'],
    });
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
    expect(await passedOver('{}\n{"a":')).toEqual([
      'buzz-meta: line 2: truncated JSON (the line ends inside a value, at the end of the input)',
    ]);
    expect(await passedOver('{}\n{"a":\n')).toEqual([
      'buzz-meta: line 2: truncated JSON (the line ends inside a value)',
    ]);
    expect(await passedOver('{}\n{"a":\n{}\n')).toEqual([
      'buzz-meta: line 2: truncated JSON (the line ends inside a value)',
    ]);
    expect(await passedOver('{}\n{"a" 1}\n')).toEqual(['buzz-meta: line 2, column 6: not JSON']);
  });

  test('the column counts characters: a character outside the BMP is one', async () => {
    expect(await passedOver('{}\n["😀", x]\n')).toEqual(['buzz-meta: line 2, column 7: not JSON']);
  });
});
