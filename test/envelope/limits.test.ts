/**
 * Size bounds, with small caller limits so each case is cheap (the defaults themselves are in
 * test/defaults/): an honestly signed delivery at a bound verifies; one item, UTF-16 unit or value
 * past it is `limit_exceeded` at the exact path, with a message naming the `limits.*` option,
 * before any signature is checked.
 */
import { describe, expect, test } from 'vitest';
import { type BuzzLimits, readBuzzContext, verifyBuzzEnvelope } from '../../src/index.js';
import type { EventTemplate, NostrEvent } from '../../src/host.js';
import { countValues, totalLength } from '../support/json-size.js';
import { AGENT, OWNER, attestFixed, signEventFixed } from '../support/keys.js';
import { type JsonObject, recomputeUnkeyed, setAt } from './mutations.js';
import { CHANNEL_ID, T0, envelopeOf, jsonCopy, promptParams, sampleEnvelope } from './sample.js';

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

/** [code, path, message] of the read, or ['ok', trust]; verifyBuzzEnvelope must agree. */
function verdict(envelope: unknown, limits?: Partial<BuzzLimits>): string[] {
  const options = limits === undefined ? { agentPubkey: AGENT.pubkey } : { agentPubkey: AGENT.pubkey, limits };
  const read = readBuzzContext(promptParams(envelope), options);
  const verification = verifyBuzzEnvelope(envelope, options);
  expect(verification.failures[0]?.code ?? 'ok').toBe(read.ok ? 'ok' : read.error.code);
  return read.ok ? ['ok', read.context.trust] : [read.error.code, read.error.path, read.error.message];
}

const hTag = ['h', CHANNEL_ID];
const tTags = (count: number): string[][] => Array.from({ length: count }, (_, i) => ['t', `topic${String(i)}`]);
const B = '/_meta/buzz';

describe('events per delivery', () => {
  test('maxEvents 2 reads the two-event sample; maxEvents 1 refuses it, naming the option', () => {
    expect(verdict(sampleEnvelope(), { maxEvents: 2 })).toEqual(['ok', 'verified']);
    expect(verdict(sampleEnvelope(), { maxEvents: 1 })).toEqual([
      'limit_exceeded',
      `${B}/events`,
      `${B}/events: at most 1 items are read (limits.maxEvents); got 2`,
    ]);
  });
});

describe('tags, tag values and content', () => {
  const limits = { maxTags: 4, maxTagValues: 3, maxTagValueLength: 40, maxContentLength: 8 };
  test.each([
    { name: '4 tags', template: { tags: [hTag, ...tTags(3)] }, expected: ['ok', 'verified'] },
    {
      name: '5 tags',
      template: { tags: [hTag, ...tTags(4)] },
      expected: [
        'limit_exceeded',
        `${B}/events/0/tags`,
        `${B}/events/0/tags: an event has more tags than limits.maxTags (4)`,
      ],
    },
    { name: '3 values in a tag', template: { tags: [hTag, ['t', 'a', 'b']] }, expected: ['ok', 'verified'] },
    {
      name: '4 values in a tag',
      template: { tags: [hTag, ['t', 'a', 'b', 'c']] },
      expected: [
        'limit_exceeded',
        `${B}/events/0/tags/1`,
        `${B}/events/0/tags/1: a tag has more values than limits.maxTagValues (3)`,
      ],
    },
    { name: 'a 40-unit tag value', template: { tags: [hTag, ['t', 'v'.repeat(40)]] }, expected: ['ok', 'verified'] },
    {
      name: 'a 40-unit astral tag value (20 emoji)',
      template: { tags: [hTag, ['t', '😀'.repeat(20)]] },
      expected: ['ok', 'verified'],
    },
    {
      name: 'a 41-unit tag value',
      template: { tags: [hTag, ['t', 'v'.repeat(41)]] },
      expected: [
        'limit_exceeded',
        `${B}/events/0/tags/1/1`,
        `${B}/events/0/tags/1/1: a tag value is longer than limits.maxTagValueLength (40 UTF-16 code units)`,
      ],
    },
    {
      // 21 code points, 41 UTF-16 units: zod's own max (code points) would let it through.
      name: 'a 41-unit astral tag value (20 emoji and a letter)',
      template: { tags: [hTag, ['t', '😀'.repeat(20) + 'v']] },
      expected: [
        'limit_exceeded',
        `${B}/events/0/tags/1/1`,
        `${B}/events/0/tags/1/1: a tag value is longer than limits.maxTagValueLength (40 UTF-16 code units)`,
      ],
    },
    { name: '8 units of content', template: { content: 'cccccccc' }, expected: ['ok', 'verified'] },
    { name: '8 units of astral content (4 emoji)', template: { content: '😀😀😀😀' }, expected: ['ok', 'verified'] },
    {
      name: '9 units of content',
      template: { content: 'ccccccccc' },
      expected: [
        'limit_exceeded',
        `${B}/events/0/content`,
        `${B}/events/0/content: the content is longer than limits.maxContentLength (8 UTF-16 code units)`,
      ],
    },
    {
      name: '9 units of astral content (4 emoji and a letter: 5 code points)',
      template: { content: '😀😀😀😀c' },
      expected: [
        'limit_exceeded',
        `${B}/events/0/content`,
        `${B}/events/0/content: the content is longer than limits.maxContentLength (8 UTF-16 code units)`,
      ],
    },
  ])('$name: $expected.0', ({ template, expected }) => {
    // A one-event delivery, so no other event comes near these small bounds.
    const event = signEventFixed({ kind: 9, created_at: T0, tags: [hTag], content: 'x', ...template }, OWNER);
    const envelope = envelopeOf({ channelId: CHANNEL_ID, ownerPubkey: OWNER.pubkey, events: [event] });
    expect(verdict(envelope, limits)).toEqual(expected);
  });
});

describe('members', () => {
  test('maxMembers 2 reads the sample; maxMembers 1 refuses it, naming the option', () => {
    expect(verdict(sampleEnvelope(), { maxMembers: 2 })).toEqual(['ok', 'verified']);
    expect(verdict(sampleEnvelope(), { maxMembers: 1 })).toEqual([
      'limit_exceeded',
      `${B}/channel/members`,
      `${B}/channel/members: at most 1 items are read (limits.maxMembers); got 2`,
    ]);
  });
});

describe('nesting, values and total string length (checked before anything is hashed)', () => {
  const nest = (depth: number): unknown => (depth === 0 ? 1 : [nest(depth - 1)]);
  const future = (value: unknown) => (envelope: JsonObject) => {
    envelope.future = value;
  };

  test('an unknown key nested past maxDepth (32) is limit_exceeded at its path, the key name not echoed', () => {
    // Depth counts containers from the envelope object: it is one, `future` adds the rest.
    expect(verdict(signedWith(future(nest(31))))).toEqual(['ok', 'verified']);
    expect(verdict(signedWith(future(nest(32))))).toEqual([
      'limit_exceeded',
      `${B}/*` + '/0'.repeat(31),
      `${B}/*${'/0'.repeat(31)}: value is nested more deeply than limits.maxDepth (32) allows`,
    ]);
    expect(verdict(signedWith(future(nest(32))), { maxDepth: 33 })).toEqual(['ok', 'verified']);
  });

  test('maxNodes counts every value: at the count the delivery verifies, one more is refused', () => {
    const envelope = signedWith(future([1, 2, 3]));
    const nodes = countValues(envelope);
    expect(verdict(envelope, { maxNodes: nodes })).toEqual(['ok', 'verified']);
    expect(verdict(envelope, { maxNodes: nodes - 1 })).toEqual([
      'limit_exceeded',
      B,
      `${B}: _meta.buzz holds more than limits.maxNodes (${String(nodes - 1)}) values`,
    ]);
  });

  test('maxObjectKeys counts the keys of each object, known or not: at the count it verifies, one less refuses', () => {
    const envelope = signedWith(future({ a: 1, b: [{ c: 1, d: 2, e: 3 }], f: null }));
    // The envelope's own 7 keys (6 known, no `job`, and `future`) and an event's 7 are the most.
    expect(Object.keys(envelope)).toHaveLength(7);
    expect(verdict(envelope, { maxObjectKeys: 7 })).toEqual(['ok', 'verified']);
    expect(verdict(envelope, { maxObjectKeys: 6 })).toEqual([
      'limit_exceeded',
      B,
      `${B}: an object holds more than limits.maxObjectKeys (6) keys`,
    ]);
    const wide = signedWith(future({ k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7, k8: 8, k9: 9 }));
    expect(verdict(wide, { maxObjectKeys: 8 })).toEqual([
      'limit_exceeded',
      `${B}/*`,
      `${B}/*: an object holds more than limits.maxObjectKeys (8) keys`,
    ]);
  });

  test('maxTotalLength sums every string and key in UTF-16 units: at the sum it verifies, one less refuses', () => {
    const envelope = signedWith(future({ note: '😀 astral text counts two units per emoji' }));
    const total = totalLength(envelope);
    expect(verdict(envelope, { maxTotalLength: total })).toEqual(['ok', 'verified']);
    expect(verdict(envelope, { maxTotalLength: total - 1 })).toEqual([
      'limit_exceeded',
      B,
      `${B}: _meta.buzz holds more than limits.maxTotalLength (${String(total - 1)}) UTF-16 units of strings`,
    ]);
  });
});

describe('event text must be well-formed UTF-16 (buzz-acp, in Rust, can neither send nor parse a lone surrogate)', () => {
  test.each([
    { name: 'content', template: { content: 'a\uD800b' }, path: `${B}/events/0/content`, what: 'the content' },
    {
      name: 'a tag value',
      template: { tags: [hTag, ['t', '\uDC00']] },
      path: `${B}/events/0/tags/1/1`,
      what: 'a tag value',
    },
  ])('a lone surrogate in $name is invalid_envelope', ({ template, path, what }) => {
    expect(verdict(signedWith(firstEvent(template)))).toEqual([
      'invalid_envelope',
      path,
      `${path}: ${what} is not well-formed UTF-16 (it holds a lone surrogate, which buzz-acp never sends)`,
    ]);
  });
});

describe('the setAt helper stays honest', () => {
  test('writes where it says', () => {
    const envelope = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
    setAt(envelope, '/future', 1);
    expect(envelope.future).toBe(1);
  });
});
