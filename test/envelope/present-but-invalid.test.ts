/**
 * A present `_meta.buzz` is read or refused, never skipped: a broken one must not downgrade the
 * agent to scraping prompt text (wire-contract: "never a reason to fall back to scraping").
 */
import { expect, test } from 'vitest';
import { readBuzzContext, verifyBuzzEnvelope } from '../../src/index.js';
import { AGENT } from '../support/keys.js';
import { jsonCopy, sampleEnvelope } from './sample.js';

/** Prompt text that looks like a rendered Buzz block: it must never be what a read returns. */
const BAIT = '[Buzz event 1 of 1 | channel 6f1c2b3a-9d4e-4f5a-8b6c-7d8e9f0a1b2c | from npub1xyz]\nhello';

function withoutVersion(): Record<string, unknown> {
  const envelope = jsonCopy(sampleEnvelope()) as unknown as Record<string, unknown>;
  delete envelope.version;
  return envelope;
}

function withNoEvents(): Record<string, unknown> {
  return { ...(jsonCopy(sampleEnvelope()) as unknown as Record<string, unknown>), events: [] };
}

test.each([
  { name: '_meta is an array', meta: [], code: 'invalid_meta', path: '/_meta' },
  { name: '_meta is a string', meta: 'buzz', code: 'invalid_meta', path: '/_meta' },
  { name: '_meta is a number', meta: 1, code: 'invalid_meta', path: '/_meta' },
  { name: 'buzz is null', meta: { buzz: null }, code: 'invalid_meta', path: '/_meta/buzz' },
  { name: 'buzz is a string', meta: { buzz: '{"version":1}' }, code: 'invalid_meta', path: '/_meta/buzz' },
  { name: 'buzz is an array', meta: { buzz: [] }, code: 'invalid_meta', path: '/_meta/buzz' },
  { name: 'buzz is false', meta: { buzz: false }, code: 'invalid_meta', path: '/_meta/buzz' },
  { name: 'buzz is 0', meta: { buzz: 0 }, code: 'invalid_meta', path: '/_meta/buzz' },
  { name: 'version 2', meta: { buzz: { version: 2 } }, code: 'unsupported_version', path: '/_meta/buzz/version' },
  { name: 'version "1"', meta: { buzz: { version: '1' } }, code: 'unsupported_version', path: '/_meta/buzz/version' },
  { name: 'version null', meta: { buzz: { version: null } }, code: 'unsupported_version', path: '/_meta/buzz/version' },
  { name: 'version 0', meta: { buzz: { version: 0 } }, code: 'unsupported_version', path: '/_meta/buzz/version' },
  {
    name: 'version 1 and nothing else',
    meta: { buzz: { version: 1 } },
    code: 'invalid_envelope',
    path: '/_meta/buzz/deliveryId',
  },
  {
    name: 'an envelope with no events',
    meta: () => ({ buzz: withNoEvents() }),
    code: 'invalid_envelope',
    path: '/_meta/buzz/events',
  },
  {
    name: 'an envelope that lost its version',
    meta: () => ({ buzz: withoutVersion() }),
    code: 'invalid_envelope',
    path: '/_meta/buzz/version',
  },
  { name: 'an empty object', meta: { buzz: {} }, code: 'invalid_draft', path: '/_meta/buzz/channelId' },
  {
    name: 'a draft with an upper-case channel id',
    meta: { buzz: { channelId: '6F1C2B3A-9D4E-4F5A-8B6C-7D8E9F0A1B2C', channelType: 'dm', events: [] } },
    code: 'invalid_draft',
    path: '/_meta/buzz/channelId',
  },
])('$name: $code at $path, never scraped or absent', ({ meta, code, path }) => {
  const given: unknown = typeof meta === 'function' ? meta() : meta;
  for (const options of [{}, { scrape: true }, { agentPubkey: AGENT.pubkey }]) {
    const read = readBuzzContext({ sessionId: 's', prompt: [{ type: 'text', text: BAIT }], _meta: given }, options);
    expect(read.ok).toBe(false);
    if (read.ok) continue;
    expect([read.error.code, read.error.path]).toEqual([code, path]);
  }
});

test.each([undefined, null, 42, 'x', [], true])(
  'verifyBuzzEnvelope(%j) reports invalid_envelope at /_meta/buzz instead of throwing',
  (value) => {
    const verification = verifyBuzzEnvelope(value, { agentPubkey: AGENT.pubkey });
    expect(verification.ok).toBe(false);
    expect(verification.failures.map((failure) => [failure.code, failure.path])).toEqual([
      ['invalid_envelope', '/_meta/buzz'],
    ]);
  },
);

test('absent _meta.buzz is the only case that reports no_buzz_context', () => {
  for (const meta of [undefined, null, {}, { traceparent: '00-abc' }, { buzz: undefined }]) {
    const read = readBuzzContext({ sessionId: 's', prompt: [{ type: 'text', text: BAIT }], _meta: meta });
    expect(read.ok ? 'ok' : read.error.code).toBe('no_buzz_context');
  }
});
