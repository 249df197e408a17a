/**
 * What `buzz-meta proxy` relays and how it survives a bad agent, with the real SDK host and the
 * SDK fixture agent: agent→host requests and streamed updates pass intact; a line that is not
 * JSON, or of 50 MB, is one stderr line and an error for the prompt it answers, and the relay
 * goes on; an agent exiting mid-prompt is an error to the host and the proxy's exit code. A raw
 * host and a raw agent check that everything else passes byte for byte, both ways.
 */
import { PassThrough } from 'node:stream';
import { RequestError } from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { FILE_TEXT, startProxied, type Proxied } from './support/proxied.js';

describe('buzz-meta proxy relays', () => {
  let proxied: Proxied;
  beforeAll(async () => {
    proxied = await startProxied([]);
  }, 30_000);
  afterAll(async () => {
    await proxied.stop();
  });

  test('agent→host requests (permission, fs) and their answers pass intact', async () => {
    const response = await proxied.prompt('ask');
    expect(response).toEqual({
      stopReason: 'end_turn',
      _meta: { permission: { outcome: { outcome: 'selected', optionId: 'yes' } }, file: { content: FILE_TEXT } },
    });
  });

  test('streamed session/update notifications arrive whole and in order, before the answer', async () => {
    proxied.chunks.length = 0;
    await proxied.prompt('stream 300');
    expect(proxied.chunks).toEqual(Array.from({ length: 300 }, (_, i) => `chunk ${String(i)}`));
  });

  test('an answer that is not JSON: one stderr line, an error for that prompt, and the relay goes on', async () => {
    const failed = await proxied.prompt('garbage').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RequestError);
    expect(failed).toMatchObject({
      code: -32603,
      message: 'Internal error',
      data: { details: "the agent's message was not JSON" },
    });
    // stderr is a pipe of its own: wait for the lines rather than assume they came before the answer.
    await proxied.stderrHas('answered with an error\n');
    expect(proxied.stderr()).toContain(
      'buzz-meta proxy: a line of 16 bytes from the agent is not JSON; dropped (no request id found in it)\n',
    );
    expect(proxied.stderr()).toMatch(
      /a line of \d+ bytes from the agent is not JSON; dropped, prompt \d+ answered with an error\n/,
    );
    expect((await proxied.prompt('echo')).stopReason).toBe('end_turn');
  });

  test('a 50 MB answer: one stderr line, an error for that prompt, and the relay goes on', async () => {
    const failed = await proxied.prompt('huge 50').catch((error: unknown) => error);
    expect(failed).toMatchObject({
      code: -32603,
      data: { details: "the agent's message was longer than 33554432 bytes" },
    });
    await proxied.stderrHas('is longer than the bound');
    expect(proxied.stderr()).toMatch(
      /a message from the agent of 524288\d{2} bytes is longer than the bound; dropped, prompt \d+ answered with an error\n/,
    );
    expect((await proxied.prompt('echo')).stopReason).toBe('end_turn');
  }, 30_000);
});

test('an agent exiting mid-prompt: the host gets an error, the proxy exits with the agent’s code', async () => {
  const proxied = await startProxied([]);
  const failed = await proxied.prompt('exit 3').catch((error: unknown) => error);
  expect(failed).toMatchObject({
    code: -32603,
    message: 'Internal error',
    data: { details: 'the agent exited with code 3 before answering' },
  });
  expect(proxied.chunks).toEqual(['about to exit']);
  expect(await proxied.exited).toBe(3);
  expect(proxied.stderr()).toContain('buzz-meta proxy: the agent exited with code 3\n');
}, 30_000);

test('everything but session/prompt passes byte for byte, ids and all, both ways', async () => {
  // A raw agent: echoes each line it gets as a string, and writes odd but valid JSON of its own.
  const agent =
    'const rl = require("node:readline").createInterface({ input: process.stdin });' +
    'process.stdout.write(\'{ "jsonrpc" : "2.0", "method" : "x/hello", "params" : { "n" : 1.50, "s" : "\\\\u00e9" } }\\n\');' +
    'rl.on("line", (line) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "x/echo", params: { line } }) + "\\n"));';
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  const sent = [
    '{"jsonrpc":"2.0","id":"a-1","method":"session/new","params":{"cwd":"/","mcpServers":[],"n":1.0,"e":1e2}}',
    '{ "jsonrpc":"2.0", "id":7, "result":{"outcome":{"outcome":"cancelled"}} }',
    '{"jsonrpc":"2.0","method":"x/note","params":{"s":"\\u00e9\\ud83d\\ude00","dup":1,"dup":2}}',
  ];
  stdin.end(sent.map((line) => `${line}\n`).join(''));
  const code = await main(['proxy', '--', process.execPath, '-e', agent], {
    writeOut: () => undefined,
    writeErr: () => undefined,
    openStdin: () => null,
    env: {},
    relayStdio: () => ({ stdin, stdout, agentStderr: 'inherit' }),
  });
  expect(code).toBe(0);
  const lines = out.split('\n').filter((line) => line !== '');
  expect(lines[0]).toBe('{ "jsonrpc" : "2.0", "method" : "x/hello", "params" : { "n" : 1.50, "s" : "\\u00e9" } }');
  expect(lines.slice(1, 4).map((line) => (JSON.parse(line) as { params: { line: string } }).params.line)).toEqual(sent);
  // The request the agent never answered is answered by the proxy once the agent is gone.
  expect(lines.slice(4)).toEqual([
    '{"jsonrpc":"2.0","id":"a-1","error":{"code":-32603,"message":"Internal error","data":{"details":"the agent exited with code 0 before answering"}}}',
  ]);
}, 30_000);
