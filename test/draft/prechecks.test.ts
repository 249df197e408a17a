/**
 * The draft reader's checks before the schema runs, in order: too many events, too many cancelled
 * events, then the total bounds (`checkInputBounds`). Each is reported by its own message, naming
 * the option to change, before any schema walks the input.
 */
import { describe, expect, test } from 'vitest';
import { readBuzzContext, type ReadBuzzOptions } from '../../src/index.js';

const CHANNEL = '0b8f5a9e-3c41-4d2a-9e7f-2a1b3c4d5e6f';
const ID = 'a'.repeat(64);
const events = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: ID, sender: ID, kind: 9, createdAt: i }));
const params = (eventCount: number) => ({
  _meta: {
    buzz: { channelId: CHANNEL, channelType: 'dm', events: events(eventCount), cancelledEvents: [] as unknown[] },
  },
});

function refusal(value: unknown, options: ReadBuzzOptions): [string, string, string] | 'ok' {
  const read = readBuzzContext(value, options);
  return read.ok ? 'ok' : [read.error.code, read.error.path, read.error.message];
}

describe('draft pre-checks', () => {
  test('too many events is refused by the length pre-check, naming the option', () => {
    expect(refusal(params(2), { limits: { maxEvents: 1 } })).toEqual([
      'limit_exceeded',
      '/_meta/buzz/events',
      '/_meta/buzz/events: at most 1 items are read (limits.maxEvents); got 2',
    ]);
  });

  test('too many cancelled events likewise', () => {
    const value = params(1);
    value._meta.buzz.cancelledEvents = [ID, ID];
    expect(refusal(value, { limits: { maxEvents: 1 } })).toEqual([
      'limit_exceeded',
      '/_meta/buzz/cancelledEvents',
      '/_meta/buzz/cancelledEvents: at most 1 items are read (limits.maxEvents); got 2',
    ]);
  });

  test('arrays within bounds still meet the total bounds before the schema', () => {
    expect(refusal(params(1), { limits: { maxNodes: 5 } })).toEqual([
      'limit_exceeded',
      '/_meta/buzz',
      '/_meta/buzz: _meta.buzz holds more than limits.maxNodes (5) values',
    ]);
    expect(refusal(params(1), {})).toBe('ok');
  });
});
