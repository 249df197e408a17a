import { describe, expect, test } from 'vitest';
import { BuzzMetaError, DEFAULT_LIMITS, parseBuzzContext, readBuzzContext, toNpub } from '../../src/index.js';
import { buildBuzzEnvelope, generateSecretKey, getPublicKey, signEvent } from '../../src/host.js';

const CHANNEL = '7f3a2b10-1234-4abc-8def-0123456789ab';
const ID = 'c'.repeat(64);
const SENDER = 'd'.repeat(64);
const draft = {
  channelId: CHANNEL,
  channelType: 'channel',
  events: [{ id: ID, sender: SENDER, kind: 9, createdAt: 1_785_840_000 }],
};

function codeOf(params: unknown, options?: Parameters<typeof readBuzzContext>[1]): string {
  const result = readBuzzContext(params, options);
  return result.ok ? 'ok' : result.error.code;
}

describe('locating _meta.buzz', () => {
  test.each([
    ['null params', null, 'invalid_params'],
    ['an array', [], 'invalid_params'],
    ['a string', 'params', 'invalid_params'],
    ['no _meta', { sessionId: 's', prompt: [] }, 'no_buzz_context'],
    ['_meta null', { _meta: null }, 'no_buzz_context'],
    ['_meta without buzz', { _meta: { traceparent: 'x' } }, 'no_buzz_context'],
    ['buzz undefined', { _meta: { buzz: undefined } }, 'no_buzz_context'],
    ['_meta an array', { _meta: [] }, 'invalid_meta'],
    ['_meta a string', { _meta: 'buzz' }, 'invalid_meta'],
    ['buzz null', { _meta: { buzz: null } }, 'invalid_meta'],
    ['buzz a string', { _meta: { buzz: 'hi' } }, 'invalid_meta'],
    ['buzz an array', { _meta: { buzz: [draft] } }, 'invalid_meta'],
    ['buzz version 2', { _meta: { buzz: { ...draft, version: 2 } } }, 'unsupported_version'],
    ['buzz version "1"', { _meta: { buzz: { ...draft, version: '1' } } }, 'unsupported_version'],
    ['buzz version 1 with a draft body', { _meta: { buzz: { ...draft, version: 1 } } }, 'invalid_envelope'],
    ['a broken draft', { _meta: { buzz: { ...draft, channelType: 7 } } }, 'invalid_draft'],
  ])('%s → %s', (_, params, code) => {
    expect(codeOf(params)).toBe(code);
  });

  test('reads only own properties: an inherited buzz is absent', () => {
    const meta = Object.create({ buzz: draft }) as object;
    expect(codeOf({ _meta: meta })).toBe('no_buzz_context');
    expect(codeOf(Object.create({ _meta: { buzz: draft } }) as object)).toBe('no_buzz_context');
  });

  test('siblings of buzz are ignored', () => {
    const result = readBuzzContext({ _meta: { buzz: draft, traceparent: '00-abc', 'vendor/x': { deep: [1.5] } } });
    expect(result.ok && result.context.diagnostics).toEqual([]);
  });

  test('a broken _meta.buzz is an error even though the prompt text is there to scrape', () => {
    const params = {
      prompt: [
        {
          type: 'text',
          text: `[Buzz event: mention]\nEvent ID: ${ID}\nChannel: ${CHANNEL}\nKind: 9\nFrom: x\nTime: y\nContent: hi`,
        },
      ],
      _meta: { buzz: { ...draft, events: 'forged' } },
    };
    const result = readBuzzContext(params);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('invalid_draft');
    expect(!result.ok && result.error.path).toBe('/_meta/buzz/events');
  });

  test('no _meta.buzz says whether scraping was turned off', () => {
    const on = readBuzzContext({ prompt: [] });
    const off = readBuzzContext({ prompt: [] }, { scrape: false });
    expect(!on.ok && on.error.message).toContain('no Buzz event block');
    expect(!off.ok && off.error.message).toContain('scraping prompt text is turned off');
  });
});

describe('the draft shape', () => {
  test('reads as meta-draft / asserted with exact fields', () => {
    const context = parseBuzzContext({
      _meta: {
        buzz: { ...draft, cancelledEvents: [{ id: ID.replace(/c/g, 'e'), sender: SENDER, kind: 9, createdAt: 5 }] },
      },
    });
    expect(context).toEqual({
      source: 'meta-draft',
      trust: 'asserted',
      channelId: CHANNEL,
      channelType: 'channel',
      hostChannelType: 'channel',
      events: [{ id: ID, sender: SENDER, kind: 9, createdAt: 1_785_840_000 }],
      cancelledEvents: [{ id: 'e'.repeat(64), sender: SENDER, kind: 9, createdAt: 5 }],
      diagnostics: [],
    });
  });
  test('reports unknown keys and does not copy them', () => {
    const context = parseBuzzContext({
      _meta: { buzz: { ...draft, future: { x: 1 }, events: [{ ...draft.events[0], reactions: 3 }] } },
    });
    expect(context.diagnostics).toEqual([
      'unknown key /_meta/buzz/future ignored',
      'unknown key /_meta/buzz/events/0/reactions ignored',
    ]);
    expect(Object.keys(context.events[0] ?? {})).toEqual(['id', 'sender', 'kind', 'createdAt']);
    expect('future' in context).toBe(false);
  });
  test('caps the unknown-key report on hostile input', () => {
    const buzz: Record<string, unknown> = { ...draft };
    for (let i = 0; i < 50; i++) buzz[`k${String(i)}`] = i;
    const context = parseBuzzContext({ _meta: { buzz } });
    expect(context.diagnostics).toHaveLength(9);
    expect(context.diagnostics[8]).toBe('42 more unknown keys under /_meta/buzz ignored');
  });
  test.each([
    ['upper-case event id', { id: ID.toUpperCase() }, '/_meta/buzz/events/0/id'],
    ['63-hex sender', { sender: SENDER.slice(1) }, '/_meta/buzz/events/0/sender'],
    ['fractional kind', { kind: 9.5 }, '/_meta/buzz/events/0/kind'],
    ['kind above 65535', { kind: 65_536 }, '/_meta/buzz/events/0/kind'],
    ['negative createdAt', { createdAt: -1 }, '/_meta/buzz/events/0/createdAt'],
    ['unsafe createdAt', { createdAt: 2 ** 60 }, '/_meta/buzz/events/0/createdAt'],
  ])('refuses %s with invalid_draft at its path', (_, patch, path) => {
    const result = readBuzzContext({ _meta: { buzz: { ...draft, events: [{ ...draft.events[0], ...patch }] } } });
    expect(!result.ok && [result.error.code, result.error.path]).toEqual(['invalid_draft', path]);
  });
  test('refuses an upper-case channel id', () => {
    const result = readBuzzContext({ _meta: { buzz: { ...draft, channelId: CHANNEL.toUpperCase() } } });
    expect(!result.ok && [result.error.code, result.error.path]).toEqual(['invalid_draft', '/_meta/buzz/channelId']);
  });
  test('refuses more events than the limit before reading them', () => {
    const events = Array.from({ length: DEFAULT_LIMITS.maxEvents + 1 }, () => 'not even an event');
    const result = readBuzzContext({ _meta: { buzz: { ...draft, events } } });
    expect(!result.ok && [result.error.code, result.error.path]).toEqual(['limit_exceeded', '/_meta/buzz/events']);
    const custom = readBuzzContext(
      { _meta: { buzz: { ...draft, events: [draft.events[0], draft.events[0]] } } },
      { limits: { maxEvents: 1 } },
    );
    expect(!custom.ok && custom.error.code).toBe('limit_exceeded');
  });
});

describe('options', () => {
  test.each([
    [{ agentPubkey: 'nope' }, 'invalid_npub', '/agentPubkey'],
    [{ agentPubkey: 'a'.repeat(63) }, 'invalid_pubkey', '/agentPubkey'],
    [{ agentPubkey: 5 as unknown as string }, 'invalid_option', '/agentPubkey'],
    [{ minTrust: 'proven' as 'verified' }, 'invalid_option', '/minTrust'],
    [{ minTrust: 'toString' as 'verified' }, 'invalid_option', '/minTrust'],
    [{ limits: { maxEvents: 0 } }, 'invalid_option', '/limits/maxEvents'],
    [{ limits: { maxTags: 1.5 } }, 'invalid_option', '/limits/maxTags'],
  ])('refuses %j', (options, code, path) => {
    const result = readBuzzContext({ _meta: { buzz: draft } }, options);
    expect(!result.ok && [result.error.code, result.error.path]).toEqual([code, path]);
  });

  test('minTrust: asserted accepts a draft, verified refuses it', () => {
    expect(codeOf({ _meta: { buzz: draft } }, { minTrust: 'asserted' })).toBe('ok');
    const result = readBuzzContext({ _meta: { buzz: draft } }, { minTrust: 'verified', agentPubkey: 'a'.repeat(64) });
    expect(!result.ok && result.error.code).toBe('trust_too_low');
  });

  test('a pinned key verifies an envelope given as hex or npub; without it the envelope is asserted', () => {
    const agent = generateSecretKey();
    const owner = generateSecretKey();
    const event = signEvent({ kind: 9, created_at: 1_785_840_000, tags: [['h', CHANNEL]], content: 'hi' }, owner);
    const buzz = buildBuzzEnvelope({
      agentSecretKey: agent,
      channelId: CHANNEL,
      ownerPubkey: getPublicKey(owner),
      events: [event],
    });
    const params = JSON.parse(JSON.stringify({ _meta: { buzz } })) as unknown;
    const hex = getPublicKey(agent);
    expect(parseBuzzContext(params, { agentPubkey: hex, minTrust: 'verified' }).trust).toBe('verified');
    expect(parseBuzzContext(params, { agentPubkey: toNpub(hex) }).trust).toBe('verified');
    expect(parseBuzzContext(params).trust).toBe('asserted');
    expect(codeOf(params, { minTrust: 'verified' })).toBe('invalid_option');
  });
});

describe('parseBuzzContext', () => {
  test('throws the same BuzzMetaError readBuzzContext returns', () => {
    let caught: unknown;
    try {
      parseBuzzContext({ _meta: { buzz: 7 } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BuzzMetaError);
    expect(caught).toMatchObject({ name: 'BuzzMetaError', code: 'invalid_meta', path: '/_meta/buzz' });
    expect((caught as Error).message).toBe('/_meta/buzz: _meta.buzz must be an object');
  });
});

describe('never throws', () => {
  test('a getter that throws becomes an internal error', () => {
    const params = {
      get _meta(): unknown {
        throw new TypeError('boom');
      },
    };
    const result = readBuzzContext(params);
    expect(!result.ok && [result.error.code, result.error.message]).toEqual([
      'internal',
      'an unexpected exception was thrown while reading the request',
    ]);
  });
});
