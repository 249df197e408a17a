/**
 * Every error `readBuzzContext` itself raises (src/read/read.ts), pinned by code, path and full message,
 * so a changed word or a dropped hint fails here.
 */
import { describe, expect, test } from 'vitest';
import { readBuzzContext } from '../../src/index.js';

const CHANNEL = '7f3a2b10-1234-4abc-8def-0123456789ab';
const draft = {
  channelId: CHANNEL,
  channelType: 'channel',
  events: [{ id: 'c'.repeat(64), sender: 'd'.repeat(64), kind: 9, createdAt: 1_785_840_000 }],
};
const AGENT = 'a'.repeat(64);

function failure(params: unknown, options?: Parameters<typeof readBuzzContext>[1]): [string, string, string] {
  const result = readBuzzContext(params, options);
  if (result.ok) throw new Error('expected a failure');
  return [result.error.code, result.error.path, result.error.message];
}

describe('readBuzzContext errors: code, path and message', () => {
  test('params that are not an object', () => {
    expect(failure([])).toEqual(['invalid_params', '', 'params must be a session/prompt params object']);
  });

  test('_meta that is not an object', () => {
    expect(failure({ _meta: 7 })).toEqual(['invalid_meta', '/_meta', '/_meta: _meta must be an object']);
  });

  test('_meta.buzz that is not an object', () => {
    expect(failure({ _meta: { buzz: [] } })).toEqual([
      'invalid_meta',
      '/_meta/buzz',
      '/_meta/buzz: _meta.buzz must be an object',
    ]);
  });

  test('a version other than 1', () => {
    expect(failure({ _meta: { buzz: { ...draft, version: 2 } } })).toEqual([
      'unsupported_version',
      '/_meta/buzz/version',
      '/_meta/buzz/version: only version 1 of _meta.buzz is understood',
    ]);
  });

  test('no _meta.buzz with scraping off, and with a minTrust that text cannot meet', () => {
    expect(failure({ prompt: [] }, { scrape: false })).toEqual([
      'no_buzz_context',
      '/_meta/buzz',
      '/_meta/buzz: the request has no _meta.buzz, and scraping prompt text is turned off',
    ]);
    expect(failure({ prompt: [] }, { minTrust: 'asserted' })).toEqual([
      'no_buzz_context',
      '/_meta/buzz',
      '/_meta/buzz: the request has no _meta.buzz, and prompt text could only be scraped (asserted was required)',
    ]);
    expect(failure({ prompt: [] })).toEqual([
      'no_buzz_context',
      '/_meta/buzz',
      '/_meta/buzz: the request has no _meta.buzz, and its prompt text has no Buzz event block',
    ]);
  });

  test('trust too low: a draft where verified was asked (with a key: without one the options are refused)', () => {
    const params = { _meta: { buzz: draft } };
    expect(failure(params, { minTrust: 'verified' })).toEqual([
      'invalid_option',
      '/agentPubkey',
      '/agentPubkey: minTrust "verified" needs agentPubkey: without the agent’s own npub nothing verifies, so every prompt would be refused',
    ]);
    expect(failure(params, { minTrust: 'verified', agentPubkey: AGENT })).toEqual([
      'trust_too_low',
      '/_meta/buzz',
      '/_meta/buzz: this context is asserted, and verified was required',
    ]);
  });

  test('the scraper gets the read’s limits (prompt text longer than they allow for any delivery)', () => {
    const params = { prompt: [{ type: 'text', text: 'x'.repeat(20_000) }] };
    // 2 × (maxEvents + 1) × (maxContentLength + 4096) = 16 388 characters at these limits.
    expect(failure(params, { limits: { maxEvents: 1, maxContentLength: 1 } })).toEqual([
      'limit_exceeded',
      '/prompt',
      '/prompt: the prompt text is longer than the limits allow for any delivery',
    ]);
    expect(failure(params)[0]).toBe('no_buzz_context');
  });

  test('an unknown minTrust', () => {
    expect(failure({ _meta: { buzz: draft } }, { minTrust: 'signed' as 'verified' })).toEqual([
      'invalid_option',
      '/minTrust',
      '/minTrust: minTrust must be "verified", "asserted" or "scraped"',
    ]);
  });

  test.each([
    ['attestation', { attestation: {} }],
    ['deliveryId', { deliveryId: 'x' }],
    ['channel without channelId', { channel: {}, channelId: undefined }],
  ])('an envelope without version (it has %s) is named as one', (_, extra) => {
    const buzz: Record<string, unknown> = { ...draft, ...extra };
    if ('channelId' in extra) delete buzz.channelId;
    expect(failure({ _meta: { buzz } })).toEqual([
      'invalid_envelope',
      '/_meta/buzz/version',
      '/_meta/buzz/version: this looks like a v1 envelope (it has attestation, deliveryId or channel) but has no "version": 1, which every v1 envelope carries',
    ]);
  });

  test('a draft that also has a channel key next to channelId is read as a draft', () => {
    const result = readBuzzContext({ _meta: { buzz: { ...draft, channel: {} } } });
    expect(result.ok ? result.context.source : result.error.code).toBe('meta-draft');
  });
});
