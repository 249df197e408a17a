/**
 * The unsigned draft shape: exact contexts for valid drafts, exact codes and paths for invalid
 * ones, and the same verdicts with or without a pinned key (a key never upgrades a draft).
 */
import { describe, expect, test } from 'vitest';
import { readBuzzContext } from '../../src/index.js';
import { AGENT } from '../support/keys.js';
import {
  INVALID_DRAFTS,
  INVALID_PR4751_DRAFTS,
  INVALID_PR7063_DRAFTS,
  PR4751_DRAFTS,
  PR7063_DRAFTS,
  VALID_DRAFTS,
} from './cases.js';

const params = (buzz: unknown) => ({ sessionId: 's', prompt: [], _meta: { buzz } });

describe('valid drafts read as meta-draft / asserted', () => {
  test.each([...VALID_DRAFTS, ...PR4751_DRAFTS, ...PR7063_DRAFTS])('$name', ({ buzz, expect: expected }) => {
    if (!expected.ok) throw new Error('valid case');
    expect(readBuzzContext(params(buzz))).toEqual({ ok: true, context: expected.context });
    // A pinned key verifies envelopes; it never upgrades an unsigned draft.
    expect(readBuzzContext(params(buzz), { agentPubkey: AGENT.pubkey })).toEqual({
      ok: true,
      context: expected.context,
    });
    expect(readBuzzContext(params(buzz), { agentPubkey: AGENT.pubkey, minTrust: 'verified' })).toMatchObject({
      ok: false,
      error: { code: 'trust_too_low', path: '/_meta/buzz' },
    });
  });
});

describe('invalid drafts are refused with their exact code and path', () => {
  test.each([...INVALID_DRAFTS, ...INVALID_PR4751_DRAFTS, ...INVALID_PR7063_DRAFTS])(
    '$name',
    ({ buzz, expect: expected }) => {
      if (expected.ok) throw new Error('invalid case');
      const read = readBuzzContext(params(buzz));
      expect(read.ok ? 'ok' : [read.error.code, read.error.path]).toEqual([expected.code, expected.path]);
    },
  );
});

test('a caller limit applies to drafts: maxEvents 1', () => {
  const [first] = VALID_DRAFTS;
  const buzz = { ...(first?.buzz as object), events: [], cancelledEvents: [] };
  expect(readBuzzContext(params(buzz), { limits: { maxEvents: 1 } }).ok).toBe(true);
  const two = VALID_DRAFTS.find((c) => c.name.startsWith('kind and createdAt'))?.buzz;
  expect(readBuzzContext(params(two), { limits: { maxEvents: 1 } })).toMatchObject({
    ok: false,
    error: { code: 'limit_exceeded', path: '/_meta/buzz/events' },
  });
});

test('the draft is read field by field: an own "__proto__" key is reported, not followed', () => {
  const buzz: unknown = JSON.parse(
    '{"__proto__":{"channelType":"dm"},"channelId":"6f1c2b3a-9d4e-4f5a-8b6c-7d8e9f0a1b2c","channelType":"channel","events":[]}',
  );
  const read = readBuzzContext(params(buzz));
  expect(read.ok && [read.context.channelType, read.context.diagnostics]).toEqual([
    'channel',
    ['unknown key /_meta/buzz/__proto__ ignored'],
  ]);
});
