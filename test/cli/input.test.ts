/**
 * What `inspect` finds in its input, beyond the recorded capture: which JSON values are prompts,
 * which are other traffic (skipped and counted), which line a prompt is reported at, and when a
 * lone value is refused. Exact output, through the same `main` the executable runs.
 */
import { describe, expect, test } from 'vitest';
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
      reports: [{ line: 2, requestId: null, ok: false, error: NO_CONTEXT }],
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
      reports: [{ line: 1, requestId: null, ok: false, error: NO_CONTEXT }],
      summary: '1 prompt, 1 failed to read',
    });
  });

  test('request ids: a string or a number is kept, anything else is null', async () => {
    const request = (id: string) => `{"jsonrpc":"2.0","id":${id},"method":"session/prompt","params":${PARAMS}}`;
    const { reports } = await inspect([request('"a"'), request('7'), request('{"x":1}'), request('null')].join('\n'));
    expect(reports).toEqual([
      { line: 1, requestId: 'a', ok: false, error: NO_CONTEXT },
      { line: 2, requestId: 7, ok: false, error: NO_CONTEXT },
      { line: 3, requestId: null, ok: false, error: NO_CONTEXT },
      { line: 4, requestId: null, ok: false, error: NO_CONTEXT },
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
      reports: [{ line: 4, requestId: 2, ok: false, error: NO_CONTEXT }],
      summary: '1 prompt, 1 failed to read, 1 other message skipped',
    });
  });

  test('a pretty-printed document after blank lines is reported at its first line', async () => {
    const input = `\n \n{\n "jsonrpc": "2.0",\n "id": 7,\n "method": "session/prompt",\n "params": ${PARAMS}\n}`;
    expect(await inspect(input)).toEqual({
      reports: [{ line: 3, requestId: 7, ok: false, error: NO_CONTEXT }],
      summary: '1 prompt, 1 failed to read',
    });
  });

  test('a pretty-printed document that does not parse: the error names its first line', async () => {
    expect(await runCli(['inspect'], '\n\n{\n  "a": [1,\n')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: line 3: not JSON\n',
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
      reports: [{ line: 2, requestId: null, ok: false, error: NO_CONTEXT }],
      summary: '1 prompt, 1 failed to read, 1 other message skipped',
    });
  });
});
