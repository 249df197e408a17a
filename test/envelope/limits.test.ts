/**
 * Size bounds: an honestly signed delivery at a bound verifies; one item, character or member
 * past it is `limit_exceeded` at the exact path, before any signature is checked.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS, type BuzzLimits, readBuzzContext, verifyBuzzEnvelope } from '../../src/index.js';
import type { EventTemplate, NostrEvent } from '../../src/host.js';
import { AGENT, OWNER, STRANGER, attestFixed, signEventFixed } from '../support/keys.js';
import { type JsonObject, recomputeUnkeyed, setAt } from './mutations.js';
import { CHANNEL_ID, T0, jsonCopy, promptParams, sampleEnvelope } from './sample.js';

/** The sample delivery with `edit` applied, every hash recomputed and re-attested by the agent. */
function signedWith(edit: (envelope: JsonObject) => void): JsonObject {
  const envelope = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
  edit(envelope);
  recomputeUnkeyed(envelope);
  return attestFixed(envelope, AGENT);
}

function firstEvent(template: Partial<EventTemplate>): (envelope: JsonObject) => void {
  const event: NostrEvent = signEventFixed(
    { kind: 9, created_at: T0, tags: [['h', CHANNEL_ID]], content: 'x', ...template },
    OWNER,
  );
  return (envelope) => {
    (envelope.events as unknown[])[0] = event;
  };
}

function verdict(envelope: unknown, limits?: Partial<BuzzLimits>): string[] {
  const options = limits === undefined ? { agentPubkey: AGENT.pubkey } : { agentPubkey: AGENT.pubkey, limits };
  const read = readBuzzContext(promptParams(envelope), options);
  const verification = verifyBuzzEnvelope(envelope, options);
  // Both entry points agree on the deciding failure.
  expect(verification.failures[0]?.code ?? 'ok').toBe(read.ok ? 'ok' : read.error.code);
  return read.ok ? ['ok', read.context.trust] : [read.error.code, read.error.path];
}

const hTag = ['h', CHANNEL_ID];
const tTags = (count: number): string[][] => Array.from({ length: count }, (_, i) => ['t', `topic${String(i)}`]);

describe('events per delivery', () => {
  const events = (count: number) => (envelope: JsonObject) => {
    envelope.events = Array.from({ length: count }, (_, i) =>
      signEventFixed({ kind: 9, created_at: T0 + i, tags: [hTag], content: `message ${String(i)}` }, OWNER),
    );
    const last = (envelope.events as NostrEvent[])[count - 1];
    setAt(envelope, '/reply', { rootEventId: last?.id, parentEventId: null, replyToEventId: last?.id });
  };

  test(`${String(DEFAULT_LIMITS.maxEvents)} events verify`, () => {
    expect(verdict(signedWith(events(DEFAULT_LIMITS.maxEvents)))).toEqual(['ok', 'verified']);
  });

  test(`${String(DEFAULT_LIMITS.maxEvents + 1)} events are limit_exceeded`, () => {
    expect(verdict(signedWith(events(DEFAULT_LIMITS.maxEvents + 1)))).toEqual(['limit_exceeded', '/_meta/buzz/events']);
  });

  test('a caller limit applies: maxEvents 1 refuses the two-event sample', () => {
    expect(verdict(sampleEnvelope(), { maxEvents: 1 })).toEqual(['limit_exceeded', '/_meta/buzz/events']);
    expect(verdict(sampleEnvelope(), { maxEvents: 2 })).toEqual(['ok', 'verified']);
  });
});

describe('tags, tag values and content', () => {
  test.each([
    { name: '100 tags', template: { tags: [hTag, ...tTags(99)] }, expected: ['ok', 'verified'] },
    {
      name: '101 tags',
      template: { tags: [hTag, ...tTags(100)] },
      expected: ['limit_exceeded', '/_meta/buzz/events/0/tags'],
    },
    {
      name: '16 values in a tag',
      template: { tags: [hTag, ['t', ...tTags(15).map((t) => t[1] ?? '')]] },
      expected: ['ok', 'verified'],
    },
    {
      name: '17 values in a tag',
      template: { tags: [hTag, ['t', ...tTags(16).map((t) => t[1] ?? '')]] },
      expected: ['limit_exceeded', '/_meta/buzz/events/0/tags/1'],
    },
    {
      name: 'a 1024-character tag value',
      template: { tags: [hTag, ['t', 'v'.repeat(1024)]] },
      expected: ['ok', 'verified'],
    },
    {
      name: 'a 1025-character tag value',
      template: { tags: [hTag, ['t', 'v'.repeat(1025)]] },
      expected: ['limit_exceeded', '/_meta/buzz/events/0/tags/1/1'],
    },
    { name: '65536 characters of content', template: { content: 'c'.repeat(65_536) }, expected: ['ok', 'verified'] },
    {
      name: '65537 characters of content',
      template: { content: 'c'.repeat(65_537) },
      expected: ['limit_exceeded', '/_meta/buzz/events/0/content'],
    },
  ])('$name: $expected', ({ template, expected }) => {
    expect(verdict(signedWith(firstEvent(template)))).toEqual(expected);
  });

  test('a caller limit applies: maxContentLength 99', () => {
    // The sample's second event has 57 UTF-16 units of content, under both bounds used here.
    const envelope = signedWith(firstEvent({ content: 'c'.repeat(100) }));
    expect(verdict(envelope, { maxContentLength: 99 })).toEqual(['limit_exceeded', '/_meta/buzz/events/0/content']);
    expect(verdict(envelope, { maxContentLength: 100 })).toEqual(['ok', 'verified']);
  });
});

describe('members and nesting', () => {
  const members = (count: number) => (envelope: JsonObject) => {
    const list = [
      { pubkey: OWNER.pubkey, role: 'member' },
      { pubkey: AGENT.pubkey, role: 'member' },
      ...Array.from({ length: count - 2 }, () => ({ pubkey: STRANGER.pubkey, role: 'member' })),
    ];
    setAt(envelope, '/channel/members', list);
  };

  test('1000 members verify, 1001 are limit_exceeded', () => {
    expect(verdict(signedWith(members(1000)))).toEqual(['ok', 'verified']);
    expect(verdict(signedWith(members(1001)))).toEqual(['limit_exceeded', '/_meta/buzz/channel/members']);
  });

  test('an unknown key nested past maxDepth (32) is limit_exceeded at its own path', () => {
    const nest = (depth: number): unknown => (depth === 0 ? 1 : [nest(depth - 1)]);
    // Depth counts containers from the envelope object: it is one, `future` adds the rest.
    const future = (depth: number) => (envelope: JsonObject) => {
      envelope.future = nest(depth);
    };
    expect(verdict(signedWith(future(31)))).toEqual(['ok', 'verified']);
    expect(verdict(signedWith(future(32)))).toEqual(['limit_exceeded', '/_meta/buzz/future' + '/0'.repeat(31)]);
    expect(verdict(signedWith(future(32)), { maxDepth: 33 })).toEqual(['ok', 'verified']);
  });
});
