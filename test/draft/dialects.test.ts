/**
 * The draft dialects real hosts send (block/buzz PR #4751, PR #7063), read whole through
 * readBuzzContext: every channelType value and its absence with the full context and its keys, a
 * merge batch, a value no host sends yet, PR #7063's events (keys and dedup work without kind or
 * time), and the strictness that does not bend (ids, pubkeys, UUID, version, no fallback to text).
 */
import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import {
  type BuzzContext,
  channelKey,
  createDeduper,
  partitionId,
  readBuzzContext,
  senderKey,
  senderKeys,
  threadKey,
} from '../../src/index.js';
import { eventSection, prompt } from '../legacy/render.js';
import { chat, ENGINEERING } from '../legacy/fixtures.js';
import { OWNER, STRANGER } from '../support/keys.js';
import { numRuns } from '../support/fuzz.js';

const CHANNEL = '6f1c2b3a-9d4e-4f5a-8b6c-7d8e9f0a1b2c';
const ID_A = '18ee922e4052d819f466e7b1881c42a6e6f0f1f01d1c2d253647ba972443fb2a';
const ID_B = '89ba98539af79ab0103a025e660294cd9117a919d15e42cebf91655bb361ba60';
const T0 = 1_785_840_000;
const HEX64 = /^[0-9a-f]{64}$/;

const params = (buzz: unknown, text: string[] = []) => ({ sessionId: 's', prompt: prompt(...text), _meta: { buzz } });

function readOk(buzz: unknown): BuzzContext {
  const read = readBuzzContext(params(buzz));
  if (!read.ok) throw new Error(`${read.error.code} at ${read.error.path}: ${read.error.message}`);
  return read.context;
}

function keysOf(context: BuzzContext) {
  return {
    channel: channelKey(context),
    sender: senderKey(context),
    senders: senderKeys(context),
    thread: threadKey(context),
    partition: partitionId(context, { unit: 'sender', prefix: 'muxi' }),
  };
}

/** A PR #4751 batch prompt's `_meta.buzz` (queue.rs beside format_event_block). */
function pr4751(channelType: string | undefined, cancelled = false) {
  return {
    channelId: CHANNEL,
    ...(channelType === undefined ? {} : { channelType }),
    events: [{ id: ID_B, sender: STRANGER.pubkey, kind: 9, createdAt: T0 + 60 }],
    ...(cancelled ? { cancelledEvents: [{ id: ID_A, sender: OWNER.pubkey, kind: 9, createdAt: T0 }] } : {}),
  };
}

const expectedKeys = {
  channel: `buzz:channel:${CHANNEL}`,
  sender: `buzz:pubkey:${STRANGER.pubkey}`,
  senders: [`buzz:pubkey:${STRANGER.pubkey}`],
  thread: null,
  partition: { id: `muxi:pubkey:${STRANGER.pubkey}`, diagnostics: [] },
};

describe('PR #4751: every channelType value and its absence', () => {
  test.each([
    ['dm', 'dm'],
    ['stream', 'channel'],
    ['private', 'channel'],
    ['unknown', 'unknown'],
    [undefined, 'unknown'],
  ] as const)('channelType %s → %s, the host value kept', (host, channelType) => {
    const context = readOk(pr4751(host));
    expect(context).toEqual({
      source: 'meta-draft',
      trust: 'asserted',
      channelId: CHANNEL,
      channelType,
      ...(host === undefined ? {} : { hostChannelType: host }),
      events: [{ id: ID_B, sender: STRANGER.pubkey, kind: 9, createdAt: T0 + 60 }],
      cancelledEvents: [],
      diagnostics: [],
    });
    expect(keysOf(context)).toEqual(expectedKeys);
  });

  test('a merge batch: cancelledEvents beside the new events, keys on the new ones', () => {
    const context = readOk(pr4751('private', true));
    expect(context).toEqual({
      source: 'meta-draft',
      trust: 'asserted',
      channelId: CHANNEL,
      channelType: 'channel',
      hostChannelType: 'private',
      events: [{ id: ID_B, sender: STRANGER.pubkey, kind: 9, createdAt: T0 + 60 }],
      cancelledEvents: [{ id: ID_A, sender: OWNER.pubkey, kind: 9, createdAt: T0 }],
      diagnostics: [],
    });
    expect(keysOf(context)).toEqual(expectedKeys);
  });

  test('a value no host sends yet reads as unknown with a diagnostic, not a failure', () => {
    const context = readOk(pr4751('voice'));
    expect(context).toMatchObject({ channelType: 'unknown', hostChannelType: 'voice' });
    expect(context.diagnostics).toEqual([
      '/_meta/buzz/channelType "voice" is a value no known host sends; read as unknown',
    ]);
    expect(keysOf(context)).toEqual(expectedKeys);
  });
});

describe('PR #7063: events {id, authorPubkey}', () => {
  const buzz = {
    channelId: CHANNEL,
    events: [
      { id: ID_A, authorPubkey: OWNER.pubkey },
      { id: ID_B, authorPubkey: STRANGER.pubkey },
    ],
  };

  test('the author is the sender; kind and time are null; keys work', () => {
    const context = readOk(buzz);
    expect(context).toEqual({
      source: 'meta-draft',
      trust: 'asserted',
      channelId: CHANNEL,
      channelType: 'unknown',
      events: [
        { id: ID_A, sender: OWNER.pubkey, kind: null, createdAt: null },
        { id: ID_B, sender: STRANGER.pubkey, kind: null, createdAt: null },
      ],
      cancelledEvents: [],
      diagnostics: [],
    });
    expect(keysOf(context)).toEqual({
      ...expectedKeys,
      senders: [`buzz:pubkey:${OWNER.pubkey}`, `buzz:pubkey:${STRANGER.pubkey}`],
      partition: {
        id: `muxi:pubkey:${STRANGER.pubkey}`,
        diagnostics: ["2 distinct senders in this delivery; attributed to the last event's sender"],
      },
    });
  });

  test('dedup keys on the event ids: a redelivery is seen, a new event is fresh', async () => {
    const deduper = createDeduper();
    const first = await deduper.claim(readOk(buzz));
    expect(first.fresh.map((event) => event.id)).toEqual([ID_A, ID_B]);
    await first.commit();
    const again = await deduper.claim(readOk({ ...buzz, events: [{ id: ID_B, authorPubkey: STRANGER.pubkey }] }));
    expect([again.fresh, again.seen.map((event) => event.id)]).toEqual([[], [ID_B]]);
    // The same event as PR #4751 sends it: one id, one key, whatever the dialect.
    const as4751 = await deduper.claim(readOk(pr4751('stream')));
    expect(as4751.seen.map((event) => event.id)).toEqual([ID_B]);
  });
});

describe('strictness that does not bend', () => {
  const event = { id: ID_A, sender: OWNER.pubkey, kind: 9, createdAt: T0 };
  test.each([
    ['an upper-case sender', { ...pr4751('stream'), events: [{ ...event, sender: OWNER.pubkey.toUpperCase() }] }],
    [
      'an upper-case authorPubkey',
      { channelId: CHANNEL, events: [{ id: ID_A, authorPubkey: OWNER.pubkey.toUpperCase() }] },
    ],
    ['a short id', { ...pr4751('dm'), events: [{ ...event, id: ID_A.slice(1) }] }],
    ['a short id (PR #7063)', { channelId: CHANNEL, events: [{ id: ID_A.slice(1), authorPubkey: OWNER.pubkey }] }],
    ['a bad UUID', { ...pr4751(undefined), channelId: CHANNEL.replace('-4f5a-', '-4f5a') }],
    ['an upper-case UUID', { ...pr4751('private'), channelId: CHANNEL.toUpperCase() }],
    ['sender and authorPubkey disagree', { channelId: CHANNEL, events: [{ ...event, authorPubkey: STRANGER.pubkey }] }],
  ])('%s is invalid_draft', (_, buzz) => {
    const read = readBuzzContext(params(buzz));
    expect(read.ok ? 'ok' : read.error.code).toBe('invalid_draft');
  });

  test('version 2 is the envelope path: unsupported_version, never a draft', () => {
    const read = readBuzzContext(params({ ...pr4751('stream'), version: 2 }));
    expect(read.ok ? 'ok' : [read.error.code, read.error.path]).toEqual(['unsupported_version', '/_meta/buzz/version']);
  });

  test('a versionless _meta.buzz of no dialect names the fields it lacks', () => {
    const read = readBuzzContext(params({ triggeringEventIds: [ID_A], replyTo: ID_A }));
    expect(read.ok ? 'ok' : [read.error.code, read.error.path, read.error.reason]).toEqual([
      'invalid_draft',
      '/_meta/buzz/channelId',
      '_meta.buzz has no "version", so it is read as a draft, and it lacks channelId and events: every draft dialect (the proposal, PR #4751, PR #7063) carries channelId and events',
    ]);
  });

  test('an event of no dialect names what it lacks', () => {
    const read = readBuzzContext(params({ channelId: CHANNEL, events: [{ id: ID_A, sender: OWNER.pubkey }] }));
    expect(read.ok ? 'ok' : read.error.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [
        '/_meta/buzz/events/0/kind',
        'an event with sender and no authorPubkey (the proposal, PR #4751) carries id, sender, kind and createdAt; it lacks kind',
      ],
      [
        '/_meta/buzz/events/0/createdAt',
        'an event with sender and no authorPubkey (the proposal, PR #4751) carries id, sender, kind and createdAt; it lacks createdAt',
      ],
    ]);
  });

  test('perfect legacy text beside a broken draft: invalid_draft, never scraped', () => {
    const text = eventSection('v4', [chat(OWNER.pubkey, 'hello')], ENGINEERING);
    expect(readBuzzContext({ sessionId: 's', prompt: prompt(text) }).ok).toBe(true);
    const broken = { ...pr4751('stream'), events: [{ ...event, sender: OWNER.pubkey.toUpperCase() }] };
    const read = readBuzzContext(params(broken, [text]));
    expect(read.ok ? read.context.source : [read.error.code, read.error.path]).toEqual([
      'invalid_draft',
      '/_meta/buzz/events/0/sender',
    ]);
  });
});

const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
/** Near-valid pubkeys and ids: right, upper-case, a digit short or long, npub-like. */
const nearHex = fc.oneof(
  hex64,
  hex64.map((h) => h.toUpperCase()),
  hex64.map((h) => h.slice(1)),
  hex64.map((h) => `${h}0`),
  fc.string(),
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const randomEvent = fc.record(
  {
    id: nearHex,
    sender: maybe(nearHex),
    authorPubkey: maybe(nearHex),
    kind: maybe(fc.oneof(fc.integer({ min: -1, max: 70_000 }), fc.double())),
    createdAt: maybe(fc.oneof(fc.nat(), fc.constant(-1), fc.constant(2 ** 53))),
    extra: maybe(fc.jsonValue({ maxDepth: 2 })),
  },
  { requiredKeys: [] },
);
const randomDraft = fc.record(
  {
    channelId: fc.oneof(
      fc.uuid(),
      fc.uuid().map((u) => u.toUpperCase()),
      fc.string(),
    ),
    channelType: fc.oneof(fc.constantFrom('dm', 'private', 'stream', 'unknown', 'channel'), fc.string(), fc.integer()),
    events: fc.array(randomEvent, { maxLength: 4 }),
    cancelledEvents: fc.array(randomEvent, { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

fcTest.prop([randomDraft], { numRuns })(
  'a random draft in any dialect never throws and never yields an id or pubkey that is not 64 lowercase hex',
  (buzz) => {
    const read = readBuzzContext(params(buzz));
    if (!read.ok) {
      expect(['invalid_draft', 'limit_exceeded', 'invalid_envelope']).toContain(read.error.code);
      return;
    }
    const context = read.context;
    expect(context.source).toBe('meta-draft');
    for (const event of [...context.events, ...context.cancelledEvents]) {
      expect(event.id).toMatch(HEX64);
      expect(event.sender).toMatch(HEX64);
    }
    expect(['dm', 'channel', 'unknown']).toContain(context.channelType);
  },
);
