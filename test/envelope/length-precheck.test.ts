/**
 * Over-long arrays are refused before the schema walks them: one finding, with the reader's own
 * message, however many bad items the array holds. (The schema alone would report every item.)
 */
import { describe, expect, test } from 'vitest';
import { verifyBuzzEnvelope } from '../../src/index.js';
import { AGENT } from '../support/keys.js';
import type { JsonObject } from './mutations.js';
import { jsonCopy, sampleEnvelope } from './sample.js';

const verify = (envelope: unknown) => verifyBuzzEnvelope(envelope, { agentPubkey: AGENT.pubkey });

describe('array length pre-check', () => {
  test('1001 events (not even events) are one limit_exceeded finding', () => {
    const envelope = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
    envelope.events = Array.from({ length: 1001 }, () => 'junk');
    expect(verify(envelope).failures).toEqual([
      {
        code: 'limit_exceeded',
        path: '/_meta/buzz/events',
        message: 'at most 1000 items are read (limits.maxEvents); got 1001',
      },
    ]);
  });

  test('10001 members (not even members) are one limit_exceeded finding', () => {
    const envelope = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
    (envelope.channel as JsonObject).members = Array.from({ length: 10_001 }, () => 7);
    expect(verify(envelope).failures).toEqual([
      {
        code: 'limit_exceeded',
        path: '/_meta/buzz/channel/members',
        message: 'at most 10000 items are read (limits.maxMembers); got 10001',
      },
    ]);
  });

  test.each([undefined, null, 'envelope', 1, [], { channel: null }, { channel: 'x', events: 'y' }])(
    'a non-envelope %j is invalid_envelope, never a throw',
    (value) => {
      const verdict = verify(value);
      expect(verdict.ok).toBe(false);
      expect(verdict.failures[0]?.code).toBe('invalid_envelope');
    },
  );
});
