/**
 * Where the pinned key comes from (the flag wins; then BUZZ_AGENT_NPUB, the name keygen prints; then
 * BUZZ_AGENT_PUBKEY, its old name; an empty variable is no key; both variables set to different keys
 * is refused), `verify` on an input whose draft failed to read (exit 1), and the one line an
 * unexpected failure prints instead of a stack trace.
 */
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { nsecEncode } from 'nostr-tools/nip19';
import { describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { AGENT, STRANGER } from '../support/keys.js';
import { runCli } from './run.js';

const capture = readFileSync(new URL('../fixtures/acp-capture.ndjson', import.meta.url), 'utf8').split('\n');
/** Capture line 5: `session/prompt` with the signed v1 envelope. */
const goodRequest = capture[4] ?? '';
const VERIFIED = 'prompt 1 (line 1): verified\n1/1 v1 envelopes verified\n';
const SIGNER_MISMATCH =
  'prompt 1 (line 1): FAILED signer_mismatch at /_meta/buzz/attestation/signerPubkey: the envelope was not attested by this agent’s pinned key';

describe('the pinned key', () => {
  test('BUZZ_AGENT_NPUB, the name keygen prints, is read by verify and inspect', async () => {
    expect(await runCli(['verify'], goodRequest, { BUZZ_AGENT_NPUB: AGENT.npub })).toEqual({
      code: 0,
      stdout: VERIFIED,
      stderr: '',
    });
    const inspected = await runCli(['inspect', '--json'], goodRequest, { BUZZ_AGENT_NPUB: AGENT.npub });
    expect(JSON.parse(inspected.stdout)).toMatchObject({ ok: true, trust: 'verified' });
  });

  test('BUZZ_AGENT_PUBKEY, its old name, is still read', async () => {
    expect(await runCli(['verify'], goodRequest, { BUZZ_AGENT_PUBKEY: AGENT.pubkey })).toEqual({
      code: 0,
      stdout: VERIFIED,
      stderr: '',
    });
  });

  test('both names set to the same key, written as npub and hex: fine', async () => {
    const env = { BUZZ_AGENT_NPUB: AGENT.npub, BUZZ_AGENT_PUBKEY: AGENT.pubkey };
    expect(await runCli(['verify'], goodRequest, env)).toEqual({ code: 0, stdout: VERIFIED, stderr: '' });
  });

  test('both names set to different keys: refused, exit 2, neither key guessed', async () => {
    const refused = {
      code: 2,
      stdout: '',
      stderr:
        'buzz-meta: BUZZ_AGENT_NPUB and BUZZ_AGENT_PUBKEY (its old name) are set to different keys: ' +
        'unset BUZZ_AGENT_PUBKEY, or pass --agent-pubkey\n',
    };
    for (const old of [STRANGER.npub, 'npub1bad']) {
      const env = { BUZZ_AGENT_NPUB: AGENT.npub, BUZZ_AGENT_PUBKEY: old };
      expect(await runCli(['verify'], goodRequest, env)).toEqual(refused);
      expect(await runCli(['inspect'], goodRequest, env)).toEqual(refused);
    }
  });

  test('--agent-pubkey wins over both variables', async () => {
    const env = { BUZZ_AGENT_NPUB: STRANGER.npub, BUZZ_AGENT_PUBKEY: 'npub1bad' };
    const run = await runCli(['verify', '--agent-pubkey', AGENT.npub], goodRequest, env);
    expect(run).toEqual({ code: 0, stdout: VERIFIED, stderr: '' });
    const stranger = await runCli(['verify'], goodRequest, { BUZZ_AGENT_NPUB: STRANGER.npub });
    expect([stranger.code, stranger.stdout.split('\n')[0]]).toEqual([1, SIGNER_MISMATCH]);
  });

  test('an empty variable is no key', async () => {
    for (const env of [
      { BUZZ_AGENT_NPUB: '' },
      { BUZZ_AGENT_PUBKEY: '' },
      { BUZZ_AGENT_NPUB: '', BUZZ_AGENT_PUBKEY: '' },
    ]) {
      expect(await runCli(['verify'], goodRequest, env)).toEqual({
        code: 2,
        stdout: '',
        stderr: 'buzz-meta: verify needs --agent-pubkey <npub|hex> (or BUZZ_AGENT_NPUB)\n',
      });
      const inspected = await runCli(['inspect', '--json'], goodRequest, env);
      expect(JSON.parse(inspected.stdout)).toMatchObject({ ok: true, trust: 'asserted' });
    }
    const old = await runCli(['verify'], goodRequest, { BUZZ_AGENT_NPUB: '', BUZZ_AGENT_PUBKEY: AGENT.npub });
    expect(old).toEqual({ code: 0, stdout: VERIFIED, stderr: '' });
  });

  test('a bad key is named by where it came from', async () => {
    expect(await runCli(['inspect'], goodRequest, { BUZZ_AGENT_NPUB: 'npub1bad' })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: BUZZ_AGENT_NPUB: not a valid npub (bad characters, mixed case or checksum)\n',
    });
    expect(await runCli(['verify'], goodRequest, { BUZZ_AGENT_PUBKEY: 'abc' })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: BUZZ_AGENT_PUBKEY: a hex pubkey is 64 hex digits; got 3\n',
    });
    expect(await runCli(['verify', '--agent-pubkey', ''], goodRequest)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'buzz-meta: --agent-pubkey: agentPubkey is empty: set it to the agent’s own npub from configuration (e.g. BUZZ_AGENT_NPUB)\n',
    });
  });

  test('an nsec pasted as the key: a warning of its own, and the secret is never printed', async () => {
    const nsec = nsecEncode(AGENT.secretKey);
    const run = await runCli(['verify'], goodRequest, { BUZZ_AGENT_NPUB: nsec });
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'buzz-meta: BUZZ_AGENT_NPUB: this is an nsec, a secret key: never give it to an agent or share it; ' +
        'pin the npub instead (`buzz-meta keygen` prints both), and make a new key pair if the nsec was seen by anyone\n',
    });
    const flag = await runCli(['inspect', '--agent-pubkey', nsec], goodRequest);
    expect(flag.stderr).toMatch(/^buzz-meta: --agent-pubkey: this is an nsec, a secret key:/);
    expect(flag.stderr + run.stderr).not.toContain(nsec.slice(5));
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
        relayStdio: () => ({ stdin: new PassThrough(), stdout: new PassThrough(), agentStderr: 'inherit' }),
      });
      expect({ code, stdout, stderr }).toEqual({
        code: 2,
        stdout: '',
        stderr: `buzz-meta: internal error (${name})\n`,
      });
    }
  });
});
