/**
 * Draft-shape cases (wire-contract §2) with their exact expected reads. Shared by
 * `draft.test.ts` and the vector generator, so the committed vectors say what the tests check.
 *
 * @packageDocumentation
 */
import type { BuzzDraftContext, BuzzErrorCode } from '../../src/index.js';
import { OWNER, STRANGER } from '../support/keys.js';

/** The channel of every draft case. */
const CHANNEL_ID = '6f1c2b3a-9d4e-4f5a-8b6c-7d8e9f0a1b2c';
const ID_A = '18ee922e4052d819f466e7b1881c42a6e6f0f1f01d1c2d253647ba972443fb2a';
const ID_B = '89ba98539af79ab0103a025e660294cd9117a919d15e42cebf91655bb361ba60';
const T0 = 1_785_840_000;

/** Which host's shape a case is written in (docs/wire-formats.md, "Draft dialects"). */
export type DraftDialect = 'proposal' | 'pr4751' | 'pr7063';

/** One draft case: the `_meta.buzz` value and what `readBuzzContext` must return. */
export interface DraftCase {
  /** What the case is about. */
  readonly name: string;
  /** The dialect it is written in (the proposal's unless said). */
  readonly dialect?: DraftDialect;
  /** The value of `_meta.buzz`. */
  readonly buzz: unknown;
  /** The exact context, or the deciding error's code and path. */
  readonly expect:
    | { readonly ok: true; readonly context: BuzzDraftContext }
    | { readonly ok: false; readonly code: BuzzErrorCode; readonly path: string };
}

const wireEvent = (id: string, sender: string, createdAt: number, kind = 9) => ({ id, sender, kind, createdAt });
const base = { channelId: CHANNEL_ID, channelType: 'channel', events: [wireEvent(ID_A, OWNER.pubkey, T0)] };

function context(fields: Partial<BuzzDraftContext>): BuzzDraftContext {
  return {
    source: 'meta-draft',
    trust: 'asserted',
    channelId: CHANNEL_ID,
    channelType: 'channel',
    hostChannelType: 'channel',
    events: [],
    cancelledEvents: [],
    diagnostics: [],
    ...fields,
  };
}

function invalid(name: string, buzz: unknown, code: BuzzErrorCode, path: string, dialect?: DraftDialect): DraftCase {
  return {
    name,
    ...(dialect === undefined ? {} : { dialect }),
    buzz,
    expect: { ok: false, code, path: `/_meta/buzz${path}` },
  };
}

/** A merge batch: one new event by the stranger, one cancelled event by the owner. */
function mergeBatch(name: string, channelType: 'channel' | 'stream', dialect?: DraftDialect): DraftCase {
  return {
    name,
    ...(dialect === undefined ? {} : { dialect }),
    buzz: {
      channelId: CHANNEL_ID,
      channelType,
      events: [wireEvent(ID_B, STRANGER.pubkey, T0 + 60)],
      cancelledEvents: [wireEvent(ID_A, OWNER.pubkey, T0)],
    },
    expect: {
      ok: true,
      context: context({
        hostChannelType: channelType,
        events: [{ id: ID_B, sender: STRANGER.pubkey, kind: 9, createdAt: T0 + 60 }],
        cancelledEvents: [{ id: ID_A, sender: OWNER.pubkey, kind: 9, createdAt: T0 }],
      }),
    },
  };
}

const many = (count: number) => Array.from({ length: count }, () => wireEvent(ID_A, OWNER.pubkey, T0));

/** Drafts that read as `meta-draft` / `asserted`. */
export const VALID_DRAFTS: readonly DraftCase[] = [
  mergeBatch('a channel with events and cancelled events', 'channel'),

  {
    name: 'a dm without cancelledEvents',
    buzz: { channelId: CHANNEL_ID, channelType: 'dm', events: [wireEvent(ID_A, OWNER.pubkey, T0)] },
    expect: {
      ok: true,
      context: context({
        channelType: 'dm',
        hostChannelType: 'dm',
        events: [{ id: ID_A, sender: OWNER.pubkey, kind: 9, createdAt: T0 }],
      }),
    },
  },
  {
    name: 'no events at all',
    buzz: { channelId: CHANNEL_ID, channelType: 'channel', events: [], cancelledEvents: [] },
    expect: { ok: true, context: context({}) },
  },
  {
    name: 'kind and createdAt at their bounds',
    buzz: {
      ...base,
      events: [wireEvent(ID_A, OWNER.pubkey, 0, 0), wireEvent(ID_B, OWNER.pubkey, 2 ** 53 - 1, 65_535)],
    },
    expect: {
      ok: true,
      context: context({
        events: [
          { id: ID_A, sender: OWNER.pubkey, kind: 0, createdAt: 0 },
          { id: ID_B, sender: OWNER.pubkey, kind: 65_535, createdAt: 2 ** 53 - 1 },
        ],
      }),
    },
  },
  {
    name: 'unknown keys are reported and not copied',
    buzz: {
      ...base,
      channelName: '#general',
      events: [{ ...wireEvent(ID_A, OWNER.pubkey, T0), content: 'hi', tags: [] }],
      cancelledEvents: [{ ...wireEvent(ID_B, OWNER.pubkey, T0), reason: 'steer' }],
    },
    expect: {
      ok: true,
      context: context({
        events: [{ id: ID_A, sender: OWNER.pubkey, kind: 9, createdAt: T0 }],
        cancelledEvents: [{ id: ID_B, sender: OWNER.pubkey, kind: 9, createdAt: T0 }],
        diagnostics: [
          'unknown key /_meta/buzz/channelName ignored',
          'unknown key /_meta/buzz/events/0/content ignored',
          'unknown key /_meta/buzz/events/0/tags ignored',
          'unknown key /_meta/buzz/cancelledEvents/0/reason ignored',
        ],
      }),
    },
  },
  {
    name: '1000 events (the default limit)',
    buzz: { ...base, events: many(1000) },
    expect: {
      ok: true,
      context: context({ events: many(1000).map((e) => ({ id: e.id, sender: e.sender, kind: 9, createdAt: T0 })) }),
    },
  },
];

/** Drafts that must be refused, with the deciding code and path. */
export const INVALID_DRAFTS: readonly DraftCase[] = [
  invalid('an upper-case channelId', { ...base, channelId: CHANNEL_ID.toUpperCase() }, 'invalid_draft', '/channelId'),
  invalid(
    'a channelId without hyphens',
    { ...base, channelId: CHANNEL_ID.replaceAll('-', '') },
    'invalid_draft',
    '/channelId',
  ),
  invalid('a braced channelId', { ...base, channelId: `{${CHANNEL_ID}}` }, 'invalid_draft', '/channelId'),
  invalid('no events', { channelId: CHANNEL_ID, channelType: 'dm' }, 'invalid_draft', '/events'),
  invalid('events as an object', { ...base, events: {} }, 'invalid_draft', '/events'),
  invalid('a null event', { ...base, events: [null] }, 'invalid_draft', '/events/0'),
  invalid(
    'a 63-digit event id',
    { ...base, events: [wireEvent(ID_A.slice(1), OWNER.pubkey, T0)] },
    'invalid_draft',
    '/events/0/id',
  ),
  invalid(
    'a 65-digit event id',
    { ...base, events: [wireEvent(ID_A + 'a', OWNER.pubkey, T0)] },
    'invalid_draft',
    '/events/0/id',
  ),
  invalid(
    'an upper-case event id',
    { ...base, events: [wireEvent(ID_A.toUpperCase(), OWNER.pubkey, T0)] },
    'invalid_draft',
    '/events/0/id',
  ),
  invalid(
    'an npub sender',
    { ...base, events: [wireEvent(ID_A, OWNER.npub, T0)] },
    'invalid_draft',
    '/events/0/sender',
  ),
  invalid(
    'kind 65536',
    { ...base, events: [wireEvent(ID_A, OWNER.pubkey, T0, 65_536)] },
    'invalid_draft',
    '/events/0/kind',
  ),
  invalid('kind -1', { ...base, events: [wireEvent(ID_A, OWNER.pubkey, T0, -1)] }, 'invalid_draft', '/events/0/kind'),
  invalid('kind 9.5', { ...base, events: [wireEvent(ID_A, OWNER.pubkey, T0, 9.5)] }, 'invalid_draft', '/events/0/kind'),
  invalid(
    'createdAt -1',
    { ...base, events: [wireEvent(ID_A, OWNER.pubkey, -1)] },
    'invalid_draft',
    '/events/0/createdAt',
  ),
  invalid(
    'createdAt 2^53',
    { ...base, events: [wireEvent(ID_A, OWNER.pubkey, 2 ** 53)] },
    'invalid_draft',
    '/events/0/createdAt',
  ),
  invalid(
    'createdAt as a string',
    { ...base, events: [{ ...wireEvent(ID_A, OWNER.pubkey, T0), createdAt: String(T0) }] },
    'invalid_draft',
    '/events/0/createdAt',
  ),
  invalid('cancelledEvents null', { ...base, cancelledEvents: null }, 'invalid_draft', '/cancelledEvents'),
  invalid('1001 events', { ...base, events: many(1001) }, 'limit_exceeded', '/events'),
  invalid('1001 cancelled events', { ...base, cancelledEvents: many(1001) }, 'limit_exceeded', '/cancelledEvents'),
];

/** An event as block/buzz PR #4751 and the proposal send it, read back. */
const read4751 = (id: string, sender: string, createdAt: number) => ({ id, sender, kind: 9, createdAt });
/** PR #7063 sends an event's id and author only: kind and time read as `null`. */
const wire7063 = (id: string, authorPubkey: string) => ({ id, authorPubkey });
const read7063 = (id: string, sender: string) => ({ id, sender, kind: null, createdAt: null });

function pr4751(name: string, channelType: string | undefined, expected: Partial<BuzzDraftContext>): DraftCase {
  const buzz = {
    channelId: CHANNEL_ID,
    ...(channelType === undefined ? {} : { channelType }),
    events: [wireEvent(ID_A, OWNER.pubkey, T0)],
  };
  const { source, trust, channelId, cancelledEvents, diagnostics } = context({});
  return {
    name,
    dialect: 'pr4751',
    buzz,
    expect: {
      ok: true,
      context: {
        source,
        trust,
        channelId,
        channelType: 'unknown',
        events: [read4751(ID_A, OWNER.pubkey, T0)],
        cancelledEvents,
        diagnostics,
        ...expected,
      },
    },
  };
}

/**
 * block/buzz PR #4751 (the proposal's author implementing it): `channelType` in the host's own
 * value set, omitted when the channel's metadata is unresolved; `cancelledEvents` on merges only.
 */
export const PR4751_DRAFTS: readonly DraftCase[] = [
  pr4751('channelType "dm"', 'dm', { channelType: 'dm', hostChannelType: 'dm' }),
  pr4751('channelType "stream" (an open channel)', 'stream', { channelType: 'channel', hostChannelType: 'stream' }),
  pr4751('channelType "private"', 'private', { channelType: 'channel', hostChannelType: 'private' }),
  pr4751('channelType "unknown"', 'unknown', { channelType: 'unknown', hostChannelType: 'unknown' }),
  pr4751('no channelType (metadata unresolved)', undefined, { channelType: 'unknown' }),
  pr4751('a channelType no host sends yet', 'forum', {
    channelType: 'unknown',
    hostChannelType: 'forum',
    diagnostics: ['/_meta/buzz/channelType "forum" is a value no known host sends; read as unknown'],
  }),
  pr4751('a channelType that is not a short lowercase name', 'Group Chat <b>', {
    channelType: 'unknown',
    diagnostics: ['/_meta/buzz/channelType is not a short lowercase name; read as unknown and not kept'],
  }),
  mergeBatch('a Steer/Interrupt merge batch: cancelledEvents beside the new events', 'stream', 'pr4751'),
];

/** PR #4751 drafts that must be refused: ids, pubkeys and the UUID are as strict as in every dialect. */
export const INVALID_PR4751_DRAFTS: readonly DraftCase[] = [
  invalid('channelType a number', { ...base, channelType: 7 }, 'invalid_draft', '/channelType', 'pr4751'),
  invalid(
    'an upper-case sender',
    { ...base, channelType: 'stream', events: [wireEvent(ID_A, OWNER.pubkey.toUpperCase(), T0)] },
    'invalid_draft',
    '/events/0/sender',
    'pr4751',
  ),
  invalid(
    'a short event id',
    { ...base, channelType: 'private', events: [wireEvent(ID_A.slice(0, 63), OWNER.pubkey, T0)] },
    'invalid_draft',
    '/events/0/id',
    'pr4751',
  ),
  invalid(
    'a channelId that is not a UUID',
    { ...base, channelType: 'dm', channelId: CHANNEL_ID.slice(0, 35) + 'g' },
    'invalid_draft',
    '/channelId',
    'pr4751',
  ),
  invalid(
    'an event with sender but no kind or createdAt',
    { channelId: CHANNEL_ID, events: [{ id: ID_A, sender: OWNER.pubkey }] },
    'invalid_draft',
    '/events/0/kind',
    'pr4751',
  ),
];

/** block/buzz PR #7063: `{channelId, events: [{id, authorPubkey}]}`, no kind, time or channel type. */
export const PR7063_DRAFTS: readonly DraftCase[] = [
  {
    name: 'events with id and authorPubkey: the author is the sender, kind and time unknown',
    dialect: 'pr7063',
    buzz: { channelId: CHANNEL_ID, events: [wire7063(ID_A, OWNER.pubkey), wire7063(ID_B, STRANGER.pubkey)] },
    expect: {
      ok: true,
      context: {
        source: 'meta-draft',
        trust: 'asserted',
        channelId: CHANNEL_ID,
        channelType: 'unknown',
        events: [read7063(ID_A, OWNER.pubkey), read7063(ID_B, STRANGER.pubkey)],
        cancelledEvents: [],
        diagnostics: [],
      },
    },
  },
  {
    name: 'sender and authorPubkey both present and equal',
    dialect: 'pr7063',
    buzz: { channelId: CHANNEL_ID, events: [{ ...wire7063(ID_A, OWNER.pubkey), sender: OWNER.pubkey }] },
    expect: {
      ok: true,
      context: {
        source: 'meta-draft',
        trust: 'asserted',
        channelId: CHANNEL_ID,
        channelType: 'unknown',
        events: [read7063(ID_A, OWNER.pubkey)],
        cancelledEvents: [],
        diagnostics: [],
      },
    },
  },
];

/** PR #7063 drafts that must be refused. */
export const INVALID_PR7063_DRAFTS: readonly DraftCase[] = [
  invalid(
    'sender and authorPubkey disagree',
    { channelId: CHANNEL_ID, events: [{ ...wire7063(ID_A, OWNER.pubkey), sender: STRANGER.pubkey }] },
    'invalid_draft',
    '/events/0/authorPubkey',
    'pr7063',
  ),
  invalid(
    'an upper-case authorPubkey',
    { channelId: CHANNEL_ID, events: [wire7063(ID_A, OWNER.pubkey.toUpperCase())] },
    'invalid_draft',
    '/events/0/authorPubkey',
    'pr7063',
  ),
  invalid(
    'an npub authorPubkey',
    { channelId: CHANNEL_ID, events: [wire7063(ID_A, OWNER.npub)] },
    'invalid_draft',
    '/events/0/authorPubkey',
    'pr7063',
  ),
  invalid(
    'an event with neither sender nor authorPubkey',
    { channelId: CHANNEL_ID, events: [{ id: ID_A }] },
    'invalid_draft',
    '/events/0/sender',
    'pr7063',
  ),
  invalid('no events key', { channelId: CHANNEL_ID }, 'invalid_draft', '/events'),
  invalid('neither channelId nor events (no dialect)', { triggeringEventIds: [ID_A] }, 'invalid_draft', '/channelId'),
];
