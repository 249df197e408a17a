/**
 * The host builder (`buzz-meta/host`) beyond the happy path: member order and duplicates, the
 * reply anchors for every marker combination, the field order buzz-acp serializes, re-attesting,
 * and that nothing it returns shares arrays with what the caller passed in (or the reader with
 * what it received).
 */
import { describe, expect, test } from 'vitest';
import { readBuzzContext, verifyBuzzEnvelope } from '../../src/index.js';
import { attestBuzzEnvelope, buildBuzzEnvelope, replyAnchorsOf, signEvent } from '../../src/host.js';
import type { EnvelopeV1 } from '../../src/envelope/schema.js';
import { envelopeToContext } from '../../src/envelope/to-context.js';
import { AGENT, OWNER, STRANGER } from '../support/keys.js';
import { thrownBuzzError } from '../support/thrown.js';
import { CHANNEL_ID, THREAD_ROOT_ID, firstChatEvent, promptParams, sampleEvents } from './sample.js';

const PARENT_ID = 'a'.repeat(64);
const EVENT_ID = 'b'.repeat(64);

const input = { agentSecretKey: AGENT.secretKey, channelId: CHANNEL_ID, ownerPubkey: OWNER.pubkey };

describe('buildBuzzEnvelope', () => {
  test('refuses an empty event list with invalid_option at /events', () => {
    const error = thrownBuzzError(() => buildBuzzEnvelope({ ...input, events: [] }));
    expect([error.code, error.path, error.message]).toEqual([
      'invalid_option',
      '/events',
      '/events: an envelope carries at least one event',
    ]);
  });

  test('sorts the members by pubkey, keeps their roles, and the result verifies', () => {
    const given = [
      { pubkey: STRANGER.pubkey, role: 'admin' as const },
      { pubkey: AGENT.pubkey, role: 'member' as const },
      { pubkey: OWNER.pubkey, role: 'owner' as const },
    ];
    const envelope = buildBuzzEnvelope({ ...input, channelType: 'channel', members: given, events: sampleEvents() });
    const expected = [...given].sort((a, b) => a.pubkey.localeCompare(b.pubkey));
    // The fixed keys are chosen so that sorting really reorders them.
    expect(expected.map((member) => member.pubkey)).not.toEqual(given.map((member) => member.pubkey));
    expect(envelope.channel.members).toEqual(expected);
    const read = readBuzzContext(promptParams(envelope), { agentPubkey: AGENT.pubkey, minTrust: 'verified' });
    expect(read.ok && read.context.members).toEqual(expected);
  });

  test('the default members are owner and agent, role member, in pubkey order', () => {
    const envelope = buildBuzzEnvelope({ ...input, events: sampleEvents() });
    expect(envelope.channel.members).toEqual(
      [
        { pubkey: OWNER.pubkey, role: 'member' },
        { pubkey: AGENT.pubkey, role: 'member' },
      ].sort((a, b) => a.pubkey.localeCompare(b.pubkey)),
    );
  });

  test('refuses a member pubkey listed twice, pointing at the second entry', () => {
    const members = [
      { pubkey: OWNER.pubkey, role: 'owner' as const },
      { pubkey: AGENT.pubkey, role: 'member' as const },
      { pubkey: OWNER.pubkey, role: 'member' as const },
    ];
    const error = thrownBuzzError(() => buildBuzzEnvelope({ ...input, members, events: sampleEvents() }));
    expect([error.code, error.path, error.message]).toEqual([
      'invalid_option',
      '/members/2/pubkey',
      '/members/2/pubkey: a member pubkey is listed twice',
    ]);
  });

  test('writes the fields in buzz-acp’s order, attestation last', () => {
    const envelope = buildBuzzEnvelope({ ...input, events: sampleEvents() });
    expect(Object.keys(envelope)).toEqual(['version', 'deliveryId', 'channel', 'reply', 'events', 'attestation']);
    expect(Object.keys(envelope.channel)).toEqual([
      'id',
      'type',
      'ownerPubkey',
      'agentPubkey',
      'members',
      'membershipRevision',
    ]);
    expect(Object.keys(envelope.attestation)).toEqual(['algorithm', 'signerPubkey', 'payloadHash', 'signature']);
  });

  test('does not share tag arrays with the events it was given', () => {
    const events = sampleEvents();
    const envelope = buildBuzzEnvelope({ ...input, events });
    (events[0].tags[0] as string[]).push('changed later');
    (events[1].tags as string[][]).push(['t', 'changed later']);
    expect(envelope.events[0]?.tags).toEqual([['h', CHANNEL_ID]]);
    expect(envelope.events[1]?.tags).toHaveLength(3);
    expect(verifyBuzzEnvelope(envelope, { agentPubkey: AGENT.pubkey }).ok).toBe(true);
  });
});

describe('attestBuzzEnvelope', () => {
  test('replaces an attestation and puts it last; the other fields keep their order', () => {
    const built = buildBuzzEnvelope({ ...input, events: sampleEvents() });
    const { attestation, ...rest } = built;
    const reordered = { attestation, ...rest };
    const resigned = attestBuzzEnvelope(reordered, AGENT.secretKey);
    expect(Object.keys(resigned)).toEqual(['version', 'deliveryId', 'channel', 'reply', 'events', 'attestation']);
    expect(resigned.attestation.payloadHash).toBe(attestation.payloadHash);
    expect(verifyBuzzEnvelope(resigned, { agentPubkey: AGENT.pubkey })).toEqual({ ok: true, failures: [] });
  });

  test('returns an ordinary object: every field writable, enumerable and deletable', () => {
    const resigned = attestBuzzEnvelope(buildBuzzEnvelope({ ...input, events: sampleEvents() }), STRANGER.secretKey);
    for (const key of Object.keys(resigned)) {
      expect(Object.getOwnPropertyDescriptor(resigned, key)).toMatchObject({
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    // What a verifier's tests do with it: edit a field, drop another.
    const edited: Record<string, unknown> = resigned;
    edited.deliveryId = '0'.repeat(64);
    expect(delete edited.reply).toBe(true);
    expect(Object.keys(edited)).toEqual(['version', 'deliveryId', 'channel', 'events', 'attestation']);
  });
});

describe('replyAnchorsOf: buzz-acp thread_anchors (buzz_envelope.rs, commit 97e1444)', () => {
  const anchors = (tags: string[][]) => replyAnchorsOf({ id: EVENT_ID, tags });
  const OTHER_ID = 'c'.repeat(64);

  test.each([
    {
      name: 'root marker only: a direct reply to the root, parent null',
      tags: [['e', THREAD_ROOT_ID, '', 'root']],
      expected: { rootEventId: THREAD_ROOT_ID, parentEventId: null, replyToEventId: EVENT_ID },
    },
    {
      name: 'reply marker only: that event is parent and root',
      tags: [['e', PARENT_ID, '', 'reply']],
      expected: { rootEventId: PARENT_ID, parentEventId: PARENT_ID, replyToEventId: EVENT_ID },
    },
    {
      name: 'root and reply plus a mention: the mention routes nothing',
      tags: [
        ['e', THREAD_ROOT_ID, '', 'root'],
        ['e', OTHER_ID, 'wss://relay.example', 'mention'],
        ['e', PARENT_ID, '', 'reply'],
      ],
      expected: { rootEventId: THREAD_ROOT_ID, parentEventId: PARENT_ID, replyToEventId: EVENT_ID },
    },
    {
      name: 'repeated markers: the last root and the last reply win',
      tags: [
        ['e', OTHER_ID, '', 'root'],
        ['e', OTHER_ID, '', 'reply'],
        ['e', THREAD_ROOT_ID, '', 'root'],
        ['e', PARENT_ID, '', 'reply'],
      ],
      expected: { rootEventId: THREAD_ROOT_ID, parentEventId: PARENT_ID, replyToEventId: EVENT_ID },
    },
    {
      name: 'upper-case anchor ids: lowercased',
      tags: [
        ['e', THREAD_ROOT_ID.toUpperCase(), '', 'root'],
        ['e', PARENT_ID.toUpperCase(), '', 'reply'],
      ],
      expected: { rootEventId: THREAD_ROOT_ID, parentEventId: PARENT_ID, replyToEventId: EVENT_ID },
    },
    {
      name: 'an empty or unknown marker: checked, routes nothing',
      tags: [
        ['e', PARENT_ID, '', ''],
        ['e', THREAD_ROOT_ID, '', 'ROOT'],
      ],
      expected: { rootEventId: EVENT_ID, parentEventId: null, replyToEventId: EVENT_ID },
    },
    {
      name: 'no e tag: the event is its own root, without a parent',
      tags: [['h', CHANNEL_ID]],
      expected: { rootEventId: EVENT_ID, parentEventId: null, replyToEventId: EVENT_ID },
    },
  ])('$name', ({ tags, expected }) => {
    expect(anchors(tags)).toEqual(expected);
  });

  const UNMARKED =
    'an e tag without a NIP-10 marker (fewer than 4 values) makes the thread anchor ambiguous; buzz-acp refuses the event';
  const MALFORMED = 'an e tag’s event id is not 64 hex digits; buzz-acp refuses the event';
  test.each([
    {
      name: 'an unmarked e tag',
      tags: [
        ['h', CHANNEL_ID],
        ['e', PARENT_ID],
      ],
      at: 1,
      message: UNMARKED,
    },
    { name: 'a three-value e tag', tags: [['e', PARENT_ID, '']], at: 0, message: UNMARKED },
    { name: 'a bare e tag', tags: [['e']], at: 0, message: UNMARKED },
    { name: 'a short anchor id', tags: [['e', PARENT_ID.slice(2), '', 'reply']], at: 0, message: MALFORMED },
    { name: 'a non-hex anchor id', tags: [['e', 'g'.repeat(64), '', 'root']], at: 0, message: MALFORMED },
    {
      name: 'a malformed id on a mention after good anchors',
      tags: [
        ['e', PARENT_ID, '', 'reply'],
        ['e', 'nope', '', 'mention'],
      ],
      at: 1,
      message: MALFORMED,
    },
  ])('refuses $name with invalid_option at its tag', ({ tags, at, message }) => {
    const error = thrownBuzzError(() => anchors(tags));
    expect([error.code, error.path, error.message]).toEqual([
      'invalid_option',
      `/tags/${String(at)}`,
      `/tags/${String(at)}: ${message}`,
    ]);
  });

  test('the builder refuses such a last event, pointing into its input', () => {
    const [first] = sampleEvents();
    const unmarked = signEvent(
      {
        kind: 9,
        created_at: 1_785_840_100,
        tags: [
          ['h', CHANNEL_ID],
          ['e', first.id],
        ],
        content: 'x',
      },
      OWNER.secretKey,
    );
    const error = thrownBuzzError(() => buildBuzzEnvelope({ ...input, events: [first, unmarked] }));
    expect([error.code, error.path]).toEqual(['invalid_option', '/events/1/tags/1']);
  });

  test('the builder writes the lowercased anchors, and the result verifies', () => {
    const [first] = sampleEvents();
    const last = signEvent(
      {
        kind: 9,
        created_at: 1_785_840_100,
        tags: [
          ['h', CHANNEL_ID],
          ['e', THREAD_ROOT_ID.toUpperCase(), '', 'root'],
        ],
        content: 'x',
      },
      OWNER.secretKey,
    );
    const envelope = buildBuzzEnvelope({ ...input, events: [first, last] });
    expect(envelope.reply).toEqual({ rootEventId: THREAD_ROOT_ID, parentEventId: null, replyToEventId: last.id });
    expect(verifyBuzzEnvelope(envelope, { agentPubkey: AGENT.pubkey })).toEqual({ ok: true, failures: [] });
  });
});

describe('signEvent', () => {
  test('the signed event keeps no reference to the template’s tags', () => {
    const tag = ['h', CHANNEL_ID];
    const template = { kind: 9, created_at: 1_785_840_000, tags: [tag], content: 'hi' };
    const event = signEvent(template, OWNER.secretKey);
    tag.push('changed later');
    template.tags.push(['t', 'changed later']);
    expect(event.tags).toEqual([['h', CHANNEL_ID]]);
    expect(event.pubkey).toBe(OWNER.pubkey);
  });
});

describe('the context a reader returns', () => {
  test('keeps no reference to the received tag arrays', () => {
    const envelope = JSON.parse(JSON.stringify(buildBuzzEnvelope({ ...input, events: [firstChatEvent()] }))) as {
      events: { tags: string[][] }[];
    };
    const read = readBuzzContext(promptParams(envelope), { agentPubkey: AGENT.pubkey });
    if (!read.ok) throw read.error;
    envelope.events[0]?.tags[0]?.push('changed later');
    expect(read.context.events[0]?.tags).toEqual([['h', CHANNEL_ID]]);
  });

  test('envelopeToContext copies each tag, so not even the schema’s output is shared', () => {
    // The reader hands envelopeToContext zod's output, which holds fresh arrays already; the copy
    // here is what keeps the context independent if that ever changes.
    const envelope = buildBuzzEnvelope({ ...input, events: [firstChatEvent()] });
    const context = envelopeToContext(envelope as unknown as EnvelopeV1, envelope, true);
    expect(context.events[0]?.tags).toEqual(envelope.events[0]?.tags);
    expect(context.events[0]?.tags[0]).not.toBe(envelope.events[0]?.tags[0]);
  });
});
