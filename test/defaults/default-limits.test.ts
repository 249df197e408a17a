/**
 * Every default bound, at its value and one past it, with honestly signed deliveries: what a real
 * buzz-acp host sends through a default Buzz relay and ACP SDK verifies (README, "Limits"). These
 * deliveries are large (up to 32 MiB); test/envelope/limits.test.ts covers the same checks with
 * small limits.
 */
import { describe, expect, test, vi } from 'vitest';
import { DEFAULT_LIMITS, createBuzzReader } from '../../src/index.js';
import type { NostrEvent } from '../../src/host.js';
import { AGENT, OWNER, attestFixed, signEventFixed } from '../support/keys.js';
import { type JsonObject, recomputeUnkeyed } from '../envelope/mutations.js';
import { CHANNEL_ID, T0, envelopeOf, jsonCopy, promptParams, sampleEnvelope } from '../envelope/sample.js';
import { countValues, totalLength } from '../support/json-size.js';

// Deliveries of up to 32 MiB, built and signed here: seconds each on a loaded 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const hTag = ['h', CHANNEL_ID];
const B = '/_meta/buzz';
// One reader for the file: its verdict cache turns repeated copies of one event into one check.
const reader = await createBuzzReader({ agentPubkey: AGENT.pubkey, backend: 'js' });

function verdict(envelope: unknown): string[] {
  const read = reader.read(promptParams(envelope));
  return read.ok ? ['ok', read.context.trust] : [read.error.code, read.error.path];
}

function oneEvent(template: { tags?: string[][]; content?: string }): NostrEvent {
  return signEventFixed({ kind: 9, created_at: T0, tags: [hTag], content: 'x', ...template }, OWNER);
}

function delivering(...events: NostrEvent[]): unknown {
  return envelopeOf({ channelId: CHANNEL_ID, ownerPubkey: OWNER.pubkey, events });
}

/** Past a bound the builder refuses to build: the sample, re-attested by the agent, carrying `events`. */
function deliveringPast(...events: NostrEvent[]): unknown {
  const envelope = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
  envelope.events = events;
  const lastId = events[events.length - 1]?.id;
  envelope.reply = { rootEventId: lastId, parentEventId: null, replyToEventId: lastId };
  recomputeUnkeyed(envelope);
  return attestFixed(envelope, AGENT);
}

test('the defaults are the documented values', () => {
  expect(DEFAULT_LIMITS).toEqual({
    maxEvents: 1000,
    maxTags: 524_288,
    maxTagValues: 524_288,
    maxTagValueLength: 524_288,
    maxContentLength: 524_288,
    maxMembers: 10_000,
    maxDepth: 32,
    maxTotalLength: 33_554_432,
    maxNodes: 16_777_216,
    maxObjectKeys: 1024,
  });
});

describe('per-event bounds: the Buzz relay frame (512 KiB)', () => {
  const max = 524_288;
  test.each([
    { name: 'tags', at: { tags: [hTag, ...Array.from({ length: max - 1 }, () => ['t'])] }, path: 'tags' },
    {
      name: 'values in a tag',
      at: { tags: [hTag, ['t', ...Array.from({ length: max - 1 }, () => 'v')]] },
      path: 'tags/1',
    },
    { name: 'UTF-16 units of a tag value', at: { tags: [hTag, ['t', 'v'.repeat(max)]] }, path: 'tags/1/1' },
    {
      name: 'UTF-16 units of an astral tag value',
      at: { tags: [hTag, ['t', '😀'.repeat(max / 2)]] },
      path: 'tags/1/1',
    },
    { name: 'UTF-16 units of content', at: { content: 'c'.repeat(max) }, path: 'content' },
    { name: 'UTF-16 units of astral content', at: { content: '😀'.repeat(max / 2) }, path: 'content' },
  ])('$name: 524288 verify, one more is limit_exceeded', ({ at, path }) => {
    expect(verdict(delivering(oneEvent(at)))).toEqual(['ok', 'verified']);
    const past =
      'content' in at
        ? { content: at.content + 'c' }
        : path === 'tags'
          ? { tags: [...at.tags, ['t']] }
          : {
              tags: at.tags.map((tag, i) =>
                i === 1 ? (path === 'tags/1' ? [...tag, 'v'] : ['t', `${tag[1] ?? ''}v`]) : tag,
              ),
            };
    expect(verdict(deliveringPast(oneEvent(past)))).toEqual(['limit_exceeded', `${B}/events/0/${path}`]);
  });
});

describe('per-delivery bounds', () => {
  test('1000 events verify, 1001 are limit_exceeded', () => {
    const event = oneEvent({});
    expect(verdict(delivering(...Array.from({ length: 1000 }, () => event)))).toEqual(['ok', 'verified']);
    expect(verdict(deliveringPast(...Array.from({ length: 1001 }, () => event)))).toEqual([
      'limit_exceeded',
      `${B}/events`,
    ]);
  });

  test('10000 members verify, 10001 are limit_exceeded', () => {
    const members = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ pubkey: i.toString(16).padStart(64, '0'), role: 'member' as const }));
    const build = (count: number) =>
      envelopeOf({ channelId: CHANNEL_ID, ownerPubkey: OWNER.pubkey, members: members(count), events: [oneEvent({})] });
    expect(verdict(build(10_000))).toEqual(['ok', 'verified']);
    const past = jsonCopy(build(10_000)) as unknown as JsonObject;
    (past.channel as { members: unknown[] }).members.push({ pubkey: 'f'.repeat(64), role: 'member' });
    recomputeUnkeyed(past);
    expect(verdict(attestFixed(past, AGENT))).toEqual(['limit_exceeded', `${B}/channel/members`]);
  });

  function withFuture(value: unknown): JsonObject {
    const envelope = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
    envelope.future = value;
    return attestFixed(envelope, AGENT);
  }

  test('33554432 UTF-16 units of strings (32 MiB, the ACP SDK message bound) verify, one more is limit_exceeded', () => {
    const probe = withFuture('');
    const pad = DEFAULT_LIMITS.maxTotalLength - totalLength(probe);
    expect(verdict(withFuture('p'.repeat(pad)))).toEqual(['ok', 'verified']);
    expect(verdict(withFuture('p'.repeat(pad + 1)))).toEqual(['limit_exceeded', B]);
  });

  test('an object of 1024 keys verifies, of 1025 is limit_exceeded (named by its known path)', () => {
    const keyed = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${String(i)}`, i]));
    expect(verdict(withFuture(keyed(1024)))).toEqual(['ok', 'verified']);
    expect(verdict(withFuture(keyed(1025)))).toEqual(['limit_exceeded', `${B}/*`]);
    // The envelope itself, and a member, count their own keys (known ones included).
    const top = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
    for (let i = Object.keys(top).length; i < 1025; i++) top[`k${String(i)}`] = i;
    expect(verdict(attestFixed(top, AGENT))).toEqual(['limit_exceeded', B]);
    const member = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
    const [first] = (member.channel as { members: JsonObject[] }).members;
    if (first === undefined) throw new Error('the sample has members');
    for (let i = 2; i < 1025; i++) first[`k${String(i)}`] = i;
    recomputeUnkeyed(member);
    expect(verdict(attestFixed(member, AGENT))).toEqual(['limit_exceeded', `${B}/channel/members/0`]);
  });

  test('16777216 values verify, one more is limit_exceeded', () => {
    const probe = withFuture([]);
    const fill = DEFAULT_LIMITS.maxNodes - countValues(probe);
    expect(verdict(withFuture(new Array<number>(fill).fill(0)))).toEqual(['ok', 'verified']);
    expect(verdict(withFuture(new Array<number>(fill + 1).fill(0)))).toEqual(['limit_exceeded', B]);
  });
});
