/**
 * Where the pinned key comes from (the flag wins over BUZZ_AGENT_PUBKEY; an empty variable is no
 * key), `verify` on an input whose draft failed to read (exit 1), and the one line an unexpected failure
 * prints instead of a stack trace.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { AGENT } from '../support/keys.js';
import { runCli } from './run.js';

const capture = readFileSync(new URL('../fixtures/acp-capture.ndjson', import.meta.url), 'utf8').split('\n');
/** Capture line 5: `session/prompt` with the signed v1 envelope. */
const goodRequest = capture[4] ?? '';
const VERIFIED = 'prompt 1 (line 1): verified\n1/1 v1 envelopes verified\n';

describe('the pinned key', () => {
  test('--agent-pubkey wins over BUZZ_AGENT_PUBKEY', async () => {
    const run = await runCli(['verify', '--agent-pubkey', AGENT.npub], goodRequest, { BUZZ_AGENT_PUBKEY: 'npub1bad' });
    expect(run).toEqual({ code: 0, stdout: VERIFIED, stderr: '' });
  });

  test('an empty BUZZ_AGENT_PUBKEY is no key', async () => {
    expect(await runCli(['verify'], goodRequest, { BUZZ_AGENT_PUBKEY: '' })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: verify needs --agent-pubkey <npub|hex> (or BUZZ_AGENT_PUBKEY)\n',
    });
    const inspected = await runCli(['inspect', '--json'], goodRequest, { BUZZ_AGENT_PUBKEY: '' });
    expect(JSON.parse(inspected.stdout)).toMatchObject({ ok: true, trust: 'asserted' });
  });
});

describe('verify', () => {
  test('a draft that fails to read fails the run (exit 1), not counted as a failed envelope', async () => {
    const badDraft = JSON.stringify({ sessionId: 's', prompt: [], _meta: { buzz: { channelId: 'nope', events: [] } } });
    expect(await runCli(['verify', '--agent-pubkey', AGENT.npub], `${badDraft}\n${goodRequest}\n`)).toEqual({
      code: 1,
      stdout:
        'prompt 1 (line 1): FAILED invalid_draft at /_meta/buzz/channelId: must be a lowercase, hyphenated UUID (36 characters)\n' +
        'prompt 2 (line 2): verified\n' +
        '1/1 v1 envelopes verified, 1 unsigned _meta.buzz failed to read (invalid_draft)\n',
      stderr: '',
    });
  });
});

describe('an unexpected failure', () => {
  test('is one line naming its type, exit 2, nothing on stdout', async () => {
    for (const [thrown, name] of [
      [new RangeError('boom'), 'RangeError'],
      ['a string', 'string'],
    ] as const) {
      let stdout = '';
      let stderr = '';
      const code = await main(['inspect'], {
        writeOut: (text) => (stdout += String(text)),
        writeErr: (text) => (stderr += text),
        openStdin: () => {
          // A hostile or buggy stdin reader may throw anything, not only Errors.
          // eslint-disable-next-line @typescript-eslint/only-throw-error
          throw thrown;
        },
        env: {},
      });
      expect({ code, stdout, stderr }).toEqual({
        code: 2,
        stdout: '',
        stderr: `buzz-meta: internal error (${name})\n`,
      });
    }
  });
});
