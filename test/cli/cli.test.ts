/**
 * The `buzz-meta` command: `inspect` on a recorded capture (exact table and NDJSON, each prompt
 * with the agent's answer), `verify` exit codes, every kind of bad input with its one-line message
 * and exit code (and the lines passed over in a capture that is otherwise readable), key commands,
 * `--help`. Run in process through the same `main` the executable calls (what a shell sees of the
 * real executable: executable.test.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decode } from 'nostr-tools/nip19';
import { getPublicKey } from 'nostr-tools/pure';
import { describe, expect, test } from 'vitest';
import { AGENT, OWNER, STRANGER } from '../support/keys.js';
import { runCli } from './run.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const CAPTURE = fixture('acp-capture.ndjson');
const captureLines = readFileSync(CAPTURE, 'utf8').trimEnd().split('\n');
/** Capture line 5: `session/prompt` with the signed v1 envelope. */
const goodRequest = captureLines[4] ?? '';

describe('inspect', () => {
  test('the recorded capture as a table, verified with the pinned key', async () => {
    const run = await runCli(['inspect', CAPTURE, '--agent-pubkey', AGENT.npub]);
    expect(run).toEqual({ code: 0, stdout: readFileSync(fixture('acp-capture.inspect.txt'), 'utf8'), stderr: '' });
    expect(run.stdout).toContain(
      'prompt 2 (line 8, request id 3)\n' +
        '  answer      line 9: refusal (refused, payload_hash_mismatch)\n' +
        '  error       payload_hash_mismatch\n',
    );
    expect(run.stdout).toContain('prompt 5 (line 16, request id 6)\n  answer      line 17: end_turn (all-seen)\n');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      '5 prompts, 2 failed to read, 5 answered, 7 other messages skipped',
    );
    expect(Math.max(...run.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  });

  test('--json: one object per prompt with the same facts', async () => {
    const run = await runCli(['inspect', CAPTURE, '--json'], null, { BUZZ_AGENT_NPUB: AGENT.npub });
    expect(run).toEqual({ code: 0, stdout: readFileSync(fixture('acp-capture.inspect.ndjson'), 'utf8'), stderr: '' });
    const reports = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(reports.map((r) => [r.line, r.requestId, r.ok, r.trust ?? (r.error as { code: string }).code])).toEqual([
      [5, 2, true, 'verified'],
      [8, 3, false, 'payload_hash_mismatch'],
      [10, 4, true, 'asserted'],
      [13, 5, false, 'no_buzz_context'],
      [16, 6, true, 'verified'],
    ]);
    const answer = (line: number, stopReason: string, outcome: string | null = null, code: string | null = null) => ({
      line,
      stopReason,
      outcome,
      code,
      error: null,
    });
    expect(reports.map((r) => r.answer)).toEqual([
      answer(7, 'end_turn'),
      answer(9, 'refusal', 'refused', 'payload_hash_mismatch'),
      answer(12, 'end_turn'),
      answer(15, 'end_turn'),
      answer(17, 'end_turn', 'all-seen'),
    ]);
    expect(reports[0]?.events).toEqual([
      expect.objectContaining({
        sender: OWNER.pubkey,
        npub: OWNER.npub,
        kind: 9,
        createdAt: 1_785_840_000,
        time: '2026-08-04T10:40:00Z',
      }),
      expect.objectContaining({ sender: OWNER.pubkey, kind: 9, createdAt: 1_785_840_060 }),
    ]);
  });

  test('without a key a v1 envelope reads as asserted (and the tampered one still fails its hash)', async () => {
    const run = await runCli(['inspect', '--json', '-'], readFileSync(CAPTURE));
    const reports = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(reports.map((r) => r.trust ?? (r.error as { code: string }).code)).toEqual([
      'asserted',
      'payload_hash_mismatch',
      'asserted',
      'no_buzz_context',
      'asserted',
    ]);
  });

  test('one JSON-RPC request, and a bare params object, pretty-printed', async () => {
    const request = JSON.parse(goodRequest) as { params: unknown };
    const asRequest = await runCli(['inspect', '--json'], JSON.stringify(request, null, 2));
    const asParams = await runCli(['inspect', '--json'], `\n${JSON.stringify(request.params, null, 2)}\n`);
    expect(JSON.parse(asRequest.stdout)).toMatchObject({ line: 1, requestId: 2, ok: true, source: 'envelope-v1' });
    expect(JSON.parse(asParams.stdout)).toMatchObject({ line: 2, requestId: null, ok: true, source: 'envelope-v1' });
  });
});

describe('verify', () => {
  test('exit 1 when an envelope fails, naming its first failing check; 0 when all verify', async () => {
    const all = await runCli(['verify', CAPTURE, '--agent-pubkey', AGENT.npub]);
    expect(all).toEqual({
      code: 1,
      stdout: [
        'prompt 1 (line 5): verified',
        'prompt 2 (line 8): FAILED payload_hash_mismatch at /_meta/buzz/attestation/payloadHash: payloadHash does not match the envelope’s contents',
        'prompt 3 (line 10): skipped, not a v1 envelope (meta-draft)',
        'prompt 4 (line 13): skipped, no v1 envelope (no_buzz_context)',
        'prompt 5 (line 16): verified',
        '2/3 v1 envelopes verified',
        '',
      ].join('\n'),
      stderr: '',
    });
    const good = await runCli(['verify', '-'], goodRequest + '\n', { BUZZ_AGENT_NPUB: AGENT.npub });
    expect(good).toEqual({ code: 0, stdout: 'prompt 1 (line 1): verified\n1/1 v1 envelopes verified\n', stderr: '' });
  });

  test('another pinned key: exit 1 with signer_mismatch', async () => {
    const run = await runCli(['verify', '--agent-pubkey', STRANGER.pubkey], goodRequest);
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')[0]).toBe(
      'prompt 1 (line 1): FAILED signer_mismatch at /_meta/buzz/attestation/signerPubkey: the envelope was not attested by this agent’s pinned key',
    );
  });

  test('no envelope at all: exit 1, nothing verified', async () => {
    const draftOnly = captureLines[9] ?? '';
    const run = await runCli(['verify', '--agent-pubkey', AGENT.npub], draftOnly);
    expect(run).toEqual({
      code: 1,
      stdout:
        'prompt 1 (line 1): skipped, not a v1 envelope (meta-draft)\nno v1 envelope in the input: nothing verified\n',
      stderr: '',
    });
  });

  test('no key: exit 2', async () => {
    expect(await runCli(['verify', CAPTURE])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: verify needs --agent-pubkey <npub|hex> (or BUZZ_AGENT_NPUB)\n',
    });
  });
});

describe('a capture with lines that are not JSON: the rest is read, the bad lines listed, exit 2', () => {
  /** `inspect --json` and the table of `input`: the lines of the prompts reported, the summary, stderr. */
  async function passedOver(input: Uint8Array | string) {
    const json = await runCli(['inspect', '--json'], input);
    const table = await runCli(['inspect'], input);
    expect([json.code, table.code, json.stderr]).toEqual([2, 2, table.stderr]);
    const lines = json.stdout
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { line: number }).line);
    return { lines, summary: table.stdout.trimEnd().split('\n').at(-1), stderr: json.stderr };
  }

  const cases: [string, Uint8Array | string, number[], string, string][] = [
    [
      'a log line on the agent’s stdout',
      `${goodRequest}\nagent started, listening on stdio\n${goodRequest}\n`,
      [1, 3],
      '2 prompts, 0 failed to read, 1 line not read',
      'buzz-meta: line 2, column 1: not JSON (plain text, e.g. a log line written to stdout)\n',
    ],
    [
      'JSON broken inside a line, with its column',
      `${goodRequest}\n{"jsonrpc":"2.0","id":9,,}\n`,
      [1],
      '1 prompt, 0 failed to read, 1 line not read',
      'buzz-meta: line 2, column 25: not JSON\n',
    ],
    [
      'a truncated last line',
      `${goodRequest}\n${goodRequest.slice(0, 200)}`,
      [1],
      '1 prompt, 0 failed to read, 1 line not read',
      'buzz-meta: line 2: truncated JSON (the line ends inside a value, at the end of the input)\n',
    ],
    [
      'a truncated line inside',
      `${goodRequest.slice(0, 120)}\n${goodRequest}\n`,
      [2],
      '1 prompt, 0 failed to read, 1 line not read',
      'buzz-meta: line 1: truncated JSON (the line ends inside a value)\n',
    ],
    [
      'binary (a NUL byte)',
      Buffer.concat([Buffer.from(`${goodRequest}\n{"a":`), Buffer.from([0, 1, 2])]),
      [1],
      '1 prompt, 0 failed to read, 1 line not read',
      'buzz-meta: line 2: binary data (a NUL byte), not JSON text\n',
    ],
    [
      'binary (not UTF-8)',
      Buffer.concat([Buffer.from(`${goodRequest}\n`), Buffer.from([0xff, 0xfe, 0x41])]),
      [1],
      '1 prompt, 0 failed to read, 1 line not read',
      'buzz-meta: line 2: binary data (not UTF-8), not JSON text\n',
    ],
  ];
  test.each(cases)('%s', async (_name, input, lines, summary, listed) => {
    expect(await passedOver(input)).toEqual({
      lines,
      summary,
      stderr: `${listed}buzz-meta: skipped 1 line that could not be read\n`,
    });
  });

  test('a 50 MB line is passed over without being read as text', async () => {
    const huge = Buffer.alloc(50 * 1024 * 1024, 0x20);
    huge[0] = 0x7b;
    const run = await runCli(['inspect', '--json'], Buffer.concat([Buffer.from(`${goodRequest}\n`), huge]));
    expect({ ...run, stdout: run.stdout.length > 0 }).toEqual({
      code: 2,
      stdout: true,
      stderr:
        'buzz-meta: line 2: longer than 33554432 bytes (the ACP message limit)\n' +
        'buzz-meta: skipped 1 line that could not be read\n',
    });
  });

  test('the first ten bad lines are listed, the rest counted', async () => {
    const input = [goodRequest, ...Array.from({ length: 12 }, (_, i) => `log line ${String(i)}`)].join('\n');
    const { stderr, summary } = await passedOver(input);
    const listed = Array.from(
      { length: 10 },
      (_, i) => `buzz-meta: line ${String(i + 2)}, column 1: not JSON (plain text, e.g. a log line written to stdout)`,
    );
    expect(stderr).toBe(
      [...listed, 'buzz-meta: skipped 12 lines that could not be read (the first 10 are listed)', ''].join('\n'),
    );
    expect(summary).toBe('1 prompt, 0 failed to read, 12 lines not read');
  });

  test('verify reads on too, and ends with exit 2 however the envelopes verified', async () => {
    const run = await runCli(['verify', '--agent-pubkey', AGENT.npub], `${goodRequest}\nhello\n`);
    expect(run).toEqual({
      code: 2,
      stdout: 'prompt 1 (line 1): verified\n1/1 v1 envelopes verified\n',
      stderr:
        'buzz-meta: line 2, column 1: not JSON (plain text, e.g. a log line written to stdout)\n' +
        'buzz-meta: skipped 1 line that could not be read\n',
    });
  });
});

describe('input with nothing to read: one line on stderr, exit 2, no stack trace', () => {
  const cases: [string, Uint8Array | string, string][] = [
    ['empty input', '\n  \n', 'buzz-meta: the input is empty: give a JSON-RPC request, params, or an NDJSON capture\n'],
    [
      'JSON that is no ACP message',
      '[1, 2, 3]',
      'buzz-meta: line 1: neither a JSON-RPC message nor session/prompt params\n',
    ],
    [
      'one line of text',
      'hello world\n',
      'buzz-meta: line 1, column 1: not JSON (plain text, e.g. a log line written to stdout)\n',
    ],
    [
      'one cut line',
      '{"jsonrpc":"2.0",',
      'buzz-meta: line 1: truncated JSON (the line ends inside a value, at the end of the input)\n',
    ],
    [
      'a pretty-printed document broken inside: its line and column',
      '{\n  "jsonrpc": "2.0",\n  "id": 1\n  "method": "session/prompt"\n}\n',
      'buzz-meta: line 4, column 3: not JSON\n',
    ],
    [
      'only binary data',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0a, 0x00]),
      'buzz-meta: line 1: binary data (not UTF-8), not JSON text\n',
    ],
  ];
  test.each(cases)('%s', async (_name, input, message) => {
    const run = await runCli(['inspect'], input);
    expect(run).toEqual({ code: 2, stdout: '', stderr: message });
  });

  test('a missing file, a directory, nothing piped, a bad key: in plain words', async () => {
    expect(await runCli(['inspect', fixture('nope.ndjson')])).toEqual({
      code: 2,
      stdout: '',
      stderr: `buzz-meta: no such file: ${fixture('nope.ndjson')}\n`,
    });
    expect((await runCli(['inspect', fixture('')])).stderr).toBe(
      `buzz-meta: ${fixture('')} is a directory: give a file\n`,
    );
    expect(await runCli(['inspect'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: no input: give a file, or pipe NDJSON into `-`\n',
    });
    expect(await runCli(['inspect', '--agent-pubkey', 'npub1nope'], goodRequest)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: --agent-pubkey: not a valid npub (bad characters, mixed case or checksum)\n',
    });
  });

  test('unknown commands and options: one line in the command’s own style, exit 2', async () => {
    expect(await runCli(['inspct'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "buzz-meta: unknown command 'inspct' (did you mean inspect?); see buzz-meta --help\n",
    });
    expect(await runCli(['inspect', '--jsn'], goodRequest)).toEqual({
      code: 2,
      stdout: '',
      stderr: "buzz-meta: unknown option '--jsn' (did you mean --json?); see buzz-meta inspect --help\n",
    });
    expect(await runCli(['npub'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "buzz-meta: missing required argument 'key'; see buzz-meta npub --help\n",
    });
    expect(await runCli([])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^Usage: buzz-meta /) as unknown,
    });
  });
});

describe('keys', () => {
  test('keygen: an nsec whose public key is the printed npub and hex', async () => {
    const run = await runCli(['keygen', '--json']);
    expect(run.stdout).toMatch(/^\{"nsec":"nsec1[0-9a-z]{58}","npub":"npub1[0-9a-z]{58}","hex":"[0-9a-f]{64}"\}\n$/);
    const pair = JSON.parse(run.stdout) as { nsec: string; npub: string; hex: string };
    const secret = decode(pair.nsec);
    if (secret.type !== 'nsec') throw new Error('not an nsec');
    expect(getPublicKey(secret.data)).toBe(pair.hex);
    expect(decode(pair.npub)).toEqual({ type: 'npub', data: pair.hex });
    const text = await runCli(['keygen']);
    expect(text.stdout).toMatch(
      /^nsec {2}nsec1[0-9a-z]{58}\n {6}secret: the host signs envelopes with it; keep it out of the agent and of logs\nnpub {2}npub1[0-9a-z]{58}\n {6}pin it in the agent: BUZZ_AGENT_NPUB=<npub>\nhex {3}[0-9a-f]{64}\n$/,
    );
  });

  test('npub and hex convert both ways; a bad key is one line, exit 2', async () => {
    expect(await runCli(['npub', OWNER.pubkey])).toEqual({ code: 0, stdout: `${OWNER.npub}\n`, stderr: '' });
    expect(await runCli(['hex', OWNER.npub])).toEqual({ code: 0, stdout: `${OWNER.pubkey}\n`, stderr: '' });
    expect(await runCli(['npub', OWNER.npub])).toEqual({ code: 0, stdout: `${OWNER.npub}\n`, stderr: '' });
    expect(await runCli(['hex', 'npub1abc'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: hex: not a valid npub (bad characters, mixed case or checksum)\n',
    });
    expect(await runCli(['npub', 'npub1abc'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: npub: not a valid npub (bad characters, mixed case or checksum)\n',
    });
    expect((await runCli(['npub'])).code).toBe(2);
  });
});

describe('--help and --version', () => {
  test('the command list and the exit codes', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: buzz-meta [options] [command]\n');
    for (const command of [
      'inspect [options] [file]',
      'verify [options] [file]',
      'keygen [options]',
      'npub <key>',
      'hex <key>',
      'proxy [options] <agent...>',
    ]) {
      expect(run.stdout).toContain(`\n  ${command}`);
    }
    expect(run.stdout).toContain(
      "\nExit codes: 0 ok, 1 a check failed (verify), 2 usage or input error; proxy: the agent's own.\n",
    );
  });

  test('demo is no command: it runs from a checkout, as npm run demo', async () => {
    expect(await runCli(['demo'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "buzz-meta: unknown command 'demo'; see buzz-meta --help\n",
    });
  });

  test.each(['inspect', 'verify', 'keygen', 'npub', 'hex', 'proxy'])('%s --help', async (command) => {
    const run = await runCli([command, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(new RegExp(`^Usage: buzz-meta ${command}\\b`));
  });

  test('inspect --help, exactly', async () => {
    expect((await runCli(['inspect', '--help'])).stdout).toBe(
      [
        'Usage: buzz-meta inspect [options] [file]',
        '',
        'print the Buzz context of every session/prompt in a request, params object or',
        'NDJSON capture, and the agent’s answer to it (the response with its id); lines',
        'that are not JSON are skipped and listed on stderr, and make the exit code 2',
        '',
        'Arguments:',
        '  file                  input file, or - for stdin (default: "-")',
        '',
        'Options:',
        '  --json                one JSON object per prompt (NDJSON) instead of the table',
        '  --agent-pubkey <key>  the agent’s own npub (or 64 hex) to verify envelopes',
        '                        against (default: $BUZZ_AGENT_NPUB)',
        '  -h, --help            display help for command',
        '',
      ].join('\n'),
    );
  });

  test('--version prints the package version', async () => {
    const version = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});
