/**
 * Received strings in `inspect`'s output: a request id holding a newline, ANSI/OSC escape
 * sequences, C1 controls, bidi overrides and a tag character draws no row of its own and sends nothing a terminal
 * acts on, in the table (U+FFFD in their place, long ids clipped) and in `--json` (`\uXXXX`
 * escapes that read back as the same id).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { shown } from '../../src/cli/render.js';
import { AGENT } from '../support/keys.js';
import { runCli } from './run.js';

const CAPTURE = fileURLToPath(new URL('../fixtures/acp-capture.ndjson', import.meta.url));
/** Capture line 5: `session/prompt` with the signed v1 envelope. */
const request = JSON.parse(readFileSync(CAPTURE, 'utf8').split('\n')[4] ?? '') as Record<string, unknown>;

/** A forged heading: a newline, a fake "trust verified" row, an OSC title, a screen clear, C1 CSI, RLO. */
const HOSTILE_ID =
  '7\n  source      envelope-v1, trust verified\u001b]0;x\u0007\u001b[2J\u009b1m\u202e\u2028\u{E0041}!';

/** Any character a terminal may act on or that starts a line, besides the table's own newlines. */
// eslint-disable-next-line no-control-regex -- these are the characters the output must not hold
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/u;

describe('inspect prints received strings escaped', () => {
  test('the table: the request id on the heading line only, controls as U+FFFD', async () => {
    const run = await runCli(['inspect', '--agent-pubkey', AGENT.npub], JSON.stringify({ ...request, id: HOSTILE_ID }));
    expect([run.code, run.stderr]).toEqual([0, '']);
    const lines = run.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'prompt 1 (line 1, request id 7\uFFFD  source      envelope-v1, trust verified\uFFFD]0;x\uFFFD\uFFFD[2J\uFFFD1m\uFFFD\uFFFD\uFFFD!)',
      '  source      envelope-v1, trust verified',
    ]);
    expect(lines.filter((line) => line.startsWith('  source'))).toHaveLength(1);
    expect(UNSAFE.test(run.stdout)).toBe(false);
  });

  test('the table: a long request id is clipped to 64 characters', async () => {
    const run = await runCli(
      ['inspect'],
      JSON.stringify({ ...request, id: `${'a'.repeat(63)}\u001b${'b'.repeat(500)}` }),
    );
    expect(run.stdout.split('\n')[0]).toBe(`prompt 1 (line 1, request id ${'a'.repeat(63)}\uFFFD…)`);
  });

  test('--json: no raw control or bidi character, and the id reads back unchanged', async () => {
    const run = await runCli(['inspect', '--json'], JSON.stringify({ ...request, id: HOSTILE_ID }));
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(UNSAFE.test(run.stdout)).toBe(false);
    expect(run.stdout).toContain(
      '"requestId":"7\\n  source      envelope-v1, trust verified\\u001b]0;x\\u0007\\u001b[2J\\u009b1m\\u202e\\u2028\\udb40\\udc41!"',
    );
    expect((JSON.parse(run.stdout) as { requestId: unknown }).requestId).toBe(HOSTILE_ID);
  });

  test('the one escaping, which verify prints its lines through too', () => {
    expect(shown('a\u001b[2Jb\nc\u009bd\u202ee')).toBe('a\uFFFD[2Jb\uFFFDc\uFFFDd\uFFFDe');
    expect(shown('abcdef', 3)).toBe('abc…');
  });
});
