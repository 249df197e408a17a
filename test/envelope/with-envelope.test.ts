/**
 * `withBuzzEnvelope` (buzz-meta/host): a copy of the caller's params with `_meta.buzz` set to a
 * freshly built, signed envelope; other `_meta` keys kept; `_meta: null` or absent start empty;
 * the caller's objects are never changed.
 */
import { describe, expect, test } from 'vitest';
import { withBuzzEnvelope } from '../../src/host.js';
import { readBuzzContext } from '../../src/index.js';
import { AGENT, OWNER } from '../support/keys.js';
import { CHANNEL_ID, sampleEvents } from './sample.js';

const input = () => ({
  agentSecretKey: AGENT.secretKey,
  channelId: CHANNEL_ID,
  ownerPubkey: OWNER.pubkey,
  events: sampleEvents(),
});

describe('withBuzzEnvelope', () => {
  test.each([
    ['absent', {}],
    ['null', { _meta: null }],
  ])('_meta %s: the result has only buzz under _meta, and verifies', (_, extra) => {
    const params = { sessionId: 's1', ...extra };
    const before = JSON.stringify(params);
    const out = withBuzzEnvelope(params, input());
    expect(Object.keys(out._meta)).toEqual(['buzz']);
    expect(out.sessionId).toBe('s1');
    expect(JSON.stringify(params)).toBe(before);
    const read = readBuzzContext(out, { agentPubkey: AGENT.pubkey, minTrust: 'verified' });
    expect(read.ok && read.context.channelId).toBe(CHANNEL_ID);
  });

  test('other _meta keys are kept, a stale buzz is replaced, and the caller’s _meta is not changed', () => {
    const meta = { traceparent: 't', buzz: 'stale' };
    const out = withBuzzEnvelope({ sessionId: 's1', _meta: meta }, input());
    expect(Object.keys(out._meta)).toEqual(['traceparent', 'buzz']);
    expect(out._meta.traceparent).toBe('t');
    expect(out._meta.buzz.version).toBe(1);
    expect(meta).toEqual({ traceparent: 't', buzz: 'stale' });
  });
});
