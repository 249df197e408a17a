/**
 * The `buzz-meta` command: `inspect` on a recorded capture (exact table and NDJSON), `verify`
 * exit codes, every kind of bad input with its one-line message and exit code, key commands,
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
    expect(run.stdout).toContain('prompt 2 (line 8, request id 3)\n  error       payload_hash_mismatch\n');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('4 prompts, 2 failed to read, 12 other messages skipped');
    expect(Math.max(...run.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  });

  test('--json: one object per prompt with the same facts', async () => {
    const run = await runCli(['inspect', CAPTURE, '--json'], null, { BUZZ_AGENT_PUBKEY: AGENT.pubkey });
    expect(run).toEqual({ code: 0, stdout: readFileSync(fixture('acp-capture.inspect.ndjson'), 'utf8'), stderr: '' });
    const reports = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(reports.map((r) => [r.line, r.requestId, r.ok, r.trust ?? (r.error as { code: string }).code])).toEqual([
      [5, 2, true, 'verified'],
      [8, 3, false, 'payload_hash_mismatch'],
      [11, 4, true, 'asserted'],
      [14, 5, false, 'no_buzz_context'],
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
        'prompt 3 (line 11): skipped, not a v1 envelope (meta-draft)',
        'prompt 4 (line 14): skipped, no v1 envelope (no_buzz_context)',
        '1/2 v1 envelopes verified',
        '',
      ].join('\n'),
      stderr: '',
    });
    const good = await runCli(['verify', '-'], goodRequest + '\n', { BUZZ_AGENT_PUBKEY: AGENT.npub });
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
    const draftOnly = captureLines[10] ?? '';
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
      stderr: 'buzz-meta: verify needs --agent-pubkey <npub|hex> (or BUZZ_AGENT_PUBKEY)\n',
    });
  });
});

describe('bad input: one line on stderr, exit 2, no stack trace', () => {
  const cases: [string, Uint8Array | string, string][] = [
    ['not JSON', `${goodRequest}\nhello world\n`, 'buzz-meta: line 2: not JSON\n'],
    [
      'a truncated last line',
      `${goodRequest}\n${goodRequest.slice(0, 200)}`,
      'buzz-meta: line 2: truncated JSON (the line ends inside a value, at the end of the input)\n',
    ],
    [
      'a truncated line inside',
      `${goodRequest.slice(0, 120)}\n${goodRequest}\n`,
      'buzz-meta: line 1: truncated JSON (the line ends inside a value)\n',
    ],
    [
      'binary (a NUL byte)',
      Buffer.concat([Buffer.from(`${goodRequest}\n{"a":`), Buffer.from([0, 1, 2])]),
      'buzz-meta: line 2: binary data (a NUL byte), not JSON text\n',
    ],
    [
      'binary (not UTF-8)',
      Buffer.concat([Buffer.from('{}\n{}\n'), Buffer.from([0xff, 0xfe, 0x41])]),
      'buzz-meta: line 3: binary data (not UTF-8), not JSON text\n',
    ],
    ['empty input', '\n  \n', 'buzz-meta: the input is empty: give a JSON-RPC request, params, or an NDJSON capture\n'],
    [
      'JSON that is no ACP message',
      '[1, 2, 3]',
      'buzz-meta: line 1: neither a JSON-RPC message nor session/prompt params\n',
    ],
  ];
  test.each(cases)('%s', async (_name, input, message) => {
    const run = await runCli(['inspect'], input);
    expect(run).toEqual({ code: 2, stdout: '', stderr: message });
  });

  test('a 50 MB line', async () => {
    const huge = Buffer.alloc(50 * 1024 * 1024, 0x20);
    huge[0] = 0x7b;
    const run = await runCli(['inspect'], Buffer.concat([Buffer.from('{}\n'), huge]));
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: line 2: longer than 33554432 bytes (the ACP message limit)\n',
    });
  });

  test('a missing file, nothing piped, a bad key', async () => {
    expect((await runCli(['inspect', fixture('nope.ndjson')])).stderr).toBe(
      `buzz-meta: cannot read ${fixture('nope.ndjson')} (ENOENT)\n`,
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

  test('unknown commands and options: commander’s one-line error, exit 2', async () => {
    expect(await runCli(['inspct'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: unknown command 'inspct'\n/) as unknown,
    });
    expect(await runCli(['inspect', '--jsn'], goodRequest)).toMatchObject({
      code: 2,
      stderr: "error: unknown option '--jsn'\n(Did you mean --json?)\n(run with --help for usage)\n",
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
    ]) {
      expect(run.stdout).toContain(`\n  ${command}`);
    }
    expect(run.stdout).toContain('\nExit codes: 0 ok, 1 a check failed (verify), 2 usage or input error.\n');
  });

  test('demo is no command: it runs from a checkout, as npm run demo', async () => {
    expect(await runCli(['demo'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: unknown command 'demo'\n/) as unknown,
    });
  });

  test.each(['inspect', 'verify', 'keygen', 'npub', 'hex'])('%s --help', async (command) => {
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
        'NDJSON capture',
        '',
        'Arguments:',
        '  file                  input file, or - for stdin (default: "-")',
        '',
        'Options:',
        '  --json                one JSON object per prompt (NDJSON) instead of the table',
        "  --agent-pubkey <key>  the managed agent's pinned pubkey (npub or 64 hex)",
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
