/**
 * `verify` as a gate: a `_meta.buzz` that is present and fails to read fails the run (exit 1),
 * whatever shape it was read as. An envelope a man in the middle rewrote into a broken draft
 * (version and attestation stripped) is such a prompt; before, it was "skipped" and the run exited 0.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { AGENT } from '../support/keys.js';
import { runCli } from './run.js';

const captureLines = readFileSync(fileURLToPath(new URL('../fixtures/acp-capture.ndjson', import.meta.url)), 'utf8')
  .trimEnd()
  .split('\n');
/** Capture line 5: `session/prompt` with the signed v1 envelope. */
const goodRequest = captureLines[4] ?? '';
/** Capture line 10: `session/prompt` with a well-formed draft. */
const draftRequest = captureLines[9] ?? '';

/** The good request with its `_meta.buzz` replaced. */
function withBuzz(buzz: unknown, id: number): string {
  const request = JSON.parse(goodRequest) as { params: Record<string, unknown> };
  return JSON.stringify({ ...request, id, params: { ...request.params, _meta: { buzz } } });
}

/** The envelope of the good request with everything but its events stripped: a draft with no channel. */
const rewritten = withBuzz(
  {
    events: (JSON.parse(goodRequest) as { params: { _meta: { buzz: { events: unknown } } } }).params._meta.buzz.events,
  },
  9,
);

const verify = (input: string) => runCli(['verify', '--agent-pubkey', AGENT.npub], input);

describe('verify fails when a present _meta.buzz does not read', () => {
  test('an envelope rewritten into a broken draft, next to one that verifies: exit 1, and why', async () => {
    expect(await verify(`${goodRequest}\n${rewritten}\n`)).toEqual({
      code: 1,
      stdout: [
        'prompt 1 (line 1): verified',
        'prompt 2 (line 2): FAILED invalid_draft at /_meta/buzz/channelId: _meta.buzz has no "version", so it is read as a draft, and it lacks channelId: every draft dialect (the proposal, PR #4751, PR #7063) carries channelId and events',
        '1/1 v1 envelopes verified, 1 unsigned _meta.buzz failed to read (invalid_draft)',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  test('a broken draft alone: exit 1', async () => {
    expect(await verify(rewritten)).toEqual({
      code: 1,
      stdout: [
        'prompt 1 (line 1): FAILED invalid_draft at /_meta/buzz/channelId: _meta.buzz has no "version", so it is read as a draft, and it lacks channelId: every draft dialect (the proposal, PR #4751, PR #7063) carries channelId and events',
        'no v1 envelope in the input: nothing verified, 1 unsigned _meta.buzz failed to read (invalid_draft)',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  test('a _meta.buzz that is no object: exit 1', async () => {
    expect(await verify(`${goodRequest}\n${withBuzz('verified', 4)}\n`)).toEqual({
      code: 1,
      stdout: [
        'prompt 1 (line 1): verified',
        'prompt 2 (line 2): FAILED invalid_meta at /_meta/buzz: _meta.buzz must be an object',
        '1/2 v1 envelopes verified',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  test('a draft that reads, and a prompt without _meta.buzz, are skipped: exit 0 when the envelopes verify', async () => {
    const plain = captureLines[12] ?? '';
    expect(await verify(`${goodRequest}\n${draftRequest}\n${plain}\n`)).toEqual({
      code: 0,
      stdout: [
        'prompt 1 (line 1): verified',
        'prompt 2 (line 2): skipped, not a v1 envelope (meta-draft)',
        'prompt 3 (line 3): skipped, no v1 envelope (no_buzz_context)',
        '1/1 v1 envelopes verified',
        '',
      ].join('\n'),
      stderr: '',
    });
  });
});
