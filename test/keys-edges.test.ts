/**
 * Key helpers at their edges: option errors in full, and which source of thread anchors wins
 * (the envelope's signed `reply`, then anchors scraped text rendered, then the last event's tags).
 */
import { describe, expect, test } from 'vitest';
import { type BuzzContext, channelKey, partitionId, senderKey, threadKey } from '../src/index.js';
import { thrownBuzzError } from './support/thrown.js';

const CHANNEL = '0b8f5a9e-3c41-4d2a-9e7f-2a1b3c4d5e6f';
const ROOT = '1'.repeat(64);
const LAST = '2'.repeat(64);
const TAGGED_ROOT = '3'.repeat(64);
const event = { id: LAST, sender: 'a'.repeat(64), kind: 9, createdAt: 1, tags: [['e', TAGGED_ROOT, '', 'root']] };
const context = (fields: Record<string, unknown>): BuzzContext =>
  ({
    channelId: CHANNEL,
    channelType: 'dm',
    events: [event],
    cancelledEvents: [],
    diagnostics: [],
    ...fields,
  }) as unknown as BuzzContext;

describe('threadKey', () => {
  test('an envelope follows its signed reply, not the tags', () => {
    const ctx = context({
      source: 'envelope-v1',
      trust: 'asserted',
      reply: { rootEventId: ROOT, parentEventId: null, replyToEventId: LAST },
    });
    expect(threadKey(ctx)).toBe(`buzz:thread:${ROOT}`);
  });

  test('scraped text follows the anchors the host rendered, when it rendered them', () => {
    const rendered = context({
      source: 'prompt-text',
      trust: 'scraped',
      reply: { rootEventId: ROOT, parentEventId: null, replyToEventId: LAST },
    });
    expect(threadKey(rendered)).toBe(`buzz:thread:${ROOT}`);
    const unrendered = context({ source: 'prompt-text', trust: 'scraped' });
    expect(threadKey(unrendered)).toBe(`buzz:thread:${TAGGED_ROOT}`);
  });

  test('any other source with tags follows the tags, even next to a reply field', () => {
    const ctx = context({
      source: 'meta-draft',
      trust: 'asserted',
      reply: { rootEventId: ROOT, parentEventId: null, replyToEventId: LAST },
    });
    expect(threadKey(ctx)).toBe(`buzz:thread:${TAGGED_ROOT}`);
  });
});

describe('option and input errors, in full', () => {
  const full = (run: () => unknown): [string, string, string] => {
    const error = thrownBuzzError(run);
    return [error.code, error.path, error.message];
  };
  const ctx = context({ source: 'meta-draft', trust: 'asserted' });

  test.each([[42], [''], ['a'.repeat(65)], ['has space']])('prefix %s is refused', (prefix) => {
    expect(full(() => channelKey(ctx, { prefix: prefix as string }))).toEqual([
      'invalid_option',
      '/prefix',
      '/prefix: prefix must be 1–64 letters, digits, "_", ".", ":" or "-"',
    ]);
  });

  test('a delivery without events has no sender', () => {
    expect(full(() => senderKey(context({ source: 'meta-draft', trust: 'asserted', events: [] })))).toEqual([
      'no_sender',
      '/events',
      '/events: the delivery has no events, so no sender',
    ]);
  });

  test('an unknown partition unit is refused', () => {
    expect(full(() => partitionId(ctx, { unit: 'thread' as 'channel' }))).toEqual([
      'invalid_option',
      '/unit',
      '/unit: unit must be "channel" or "sender"',
    ]);
  });
});
