import { describe, expect, test } from 'vitest';
import {
  type BuzzContext,
  type BuzzMetaError,
  channelKey,
  parseBuzzContext,
  partitionId,
  senderKey,
  senderKeys,
  threadKey,
} from '../src/index.js';
import { buildBuzzEnvelope, generateSecretKey, getPublicKey, signEvent } from '../src/host.js';
import { thrownBuzzError } from './support/thrown.js';

const CHANNEL = '7f3a2b10-1234-4abc-8def-0123456789ab';
const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const E1 = '1'.repeat(64);
const E2 = '2'.repeat(64);
const E3 = '3'.repeat(64);

function draft(senders: string[]): BuzzContext {
  return parseBuzzContext({
    _meta: {
      buzz: {
        channelId: CHANNEL,
        channelType: 'channel',
        events: senders.map((sender, i) => ({
          id: String(i + 1).repeat(64),
          sender,
          kind: 9,
          createdAt: 1_785_840_000 + i,
        })),
      },
    },
  });
}

function errorOf(run: () => unknown): BuzzMetaError {
  try {
    run();
  } catch (error) {
    return error as BuzzMetaError;
  }
  throw new Error('expected an error');
}

describe('channelKey', () => {
  test('uses the acp-bridge format with the default and a custom prefix', () => {
    expect(channelKey(draft([A]))).toBe(`buzz:channel:${CHANNEL}`);
    expect(channelKey(draft([A]), { prefix: 'muxi' })).toBe(`muxi:channel:${CHANNEL}`);
  });
  test.each(['', 'has space', 'x'.repeat(65), 'new\nline'])('refuses prefix %j', (prefix) => {
    const error = errorOf(() => channelKey(draft([A]), { prefix }));
    expect(error.code).toBe('invalid_option');
    expect(error.path).toBe('/prefix');
  });
});

describe('senderKey and senderKeys', () => {
  test('attribute to the last event’s sender', () => {
    expect(senderKey(draft([A, B]))).toBe(`buzz:pubkey:${B}`);
    expect(senderKey(draft([B, A]), { prefix: 'p' })).toBe(`p:pubkey:${A}`);
  });
  test('list distinct senders in first-seen order', () => {
    expect(senderKeys(draft([B, A, B, A]))).toEqual([`buzz:pubkey:${B}`, `buzz:pubkey:${A}`]);
  });
  test('an empty delivery has no sender', () => {
    expect(errorOf(() => senderKey(draft([]))).code).toBe('no_sender');
    expect(senderKeys(draft([]))).toEqual([]);
  });
});

describe('partitionId', () => {
  test('per channel', () => {
    expect(partitionId(draft([A, B]), { unit: 'channel', prefix: 'muxi' })).toEqual({
      id: `muxi:channel:${CHANNEL}`,
      diagnostics: [],
    });
  });
  test('per sender, one sender: no diagnostic', () => {
    expect(partitionId(draft([A, A]), { unit: 'sender' })).toEqual({ id: `buzz:pubkey:${A}`, diagnostics: [] });
  });
  test('per sender, several senders: last one, with a diagnostic naming how many', () => {
    expect(partitionId(draft([A, B, A]), { unit: 'sender' })).toEqual({
      id: `buzz:pubkey:${A}`,
      diagnostics: ["2 distinct senders in this delivery; attributed to the last event's sender"],
    });
  });
  test('refuses an unknown unit', () => {
    const error = errorOf(() => partitionId(draft([A]), { unit: 'team' as 'sender' }));
    expect(error.code).toBe('invalid_option');
    expect(error.path).toBe('/unit');
  });
});

describe('threadKey', () => {
  test('is null when the source does not say (draft without tags)', () => {
    expect(threadKey(draft([A]))).toBeNull();
  });

  function envelopeWithLastTags(tags: string[][]): BuzzContext {
    const agent = generateSecretKey();
    const owner = generateSecretKey();
    const event = signEvent(
      { kind: 9, created_at: 1_785_840_000, tags: [['h', CHANNEL], ...tags], content: 'hi' },
      owner,
    );
    const buzz = buildBuzzEnvelope({
      agentSecretKey: agent,
      channelId: CHANNEL,
      ownerPubkey: getPublicKey(owner),
      events: [event],
    });
    return parseBuzzContext({ _meta: { buzz } });
  }

  test('follows reply.rootEventId of an envelope', () => {
    expect(
      threadKey(
        envelopeWithLastTags([
          ['e', E1, '', 'root'],
          ['e', E2, '', 'reply'],
        ]),
      ),
    ).toBe(`buzz:thread:${E1}`);
    expect(threadKey(envelopeWithLastTags([['e', E2, '', 'reply']]), { prefix: 'm' })).toBe(`m:thread:${E2}`);
  });
  test('a top-level message starts its own thread', () => {
    const ctx = envelopeWithLastTags([]);
    expect(threadKey(ctx)).toBe(`buzz:thread:${ctx.events[0]?.id ?? ''}`);
  });

  function scrapedWithTags(tags: string[][] | undefined, id: string | null): BuzzContext {
    // Scraped contexts come from a later module; build the shape directly to test the NIP-10 walk.
    return {
      source: 'prompt-text',
      trust: 'scraped',
      channelId: CHANNEL,
      channelType: 'unknown',
      events: [{ id, sender: A, kind: 9, createdAt: 1, ...(tags === undefined ? {} : { tags }) }],
      cancelledEvents: [],
      diagnostics: [],
    };
  }
  test('walks the last event’s NIP-10 tags when there is no reply object', () => {
    expect(
      threadKey(
        scrapedWithTags(
          [
            ['e', E2, '', 'reply'],
            ['e', E1, '', 'root'],
          ],
          E3,
        ),
      ),
    ).toBe(`buzz:thread:${E1}`);
    expect(
      threadKey(
        scrapedWithTags(
          [
            ['e', E2, '', 'reply'],
            ['p', A],
          ],
          E3,
        ),
      ),
    ).toBe(`buzz:thread:${E2}`);
    expect(threadKey(scrapedWithTags([['h', CHANNEL]], E3))).toBe(`buzz:thread:${E3}`);
    expect(threadKey(scrapedWithTags([], null))).toBeNull();
    expect(threadKey(scrapedWithTags(undefined, E3))).toBeNull();
  });
  test('reads the tags as buzz-acp’s thread_anchors: last root wins, ids lowercased', () => {
    const tags = [
      ['e', E2, '', 'root'],
      ['e', E1.toUpperCase(), '', 'root'],
      ['e', E3, '', 'mention'],
    ];
    expect(threadKey(scrapedWithTags(tags, E3))).toBe(`buzz:thread:${E1}`);
  });
  test.each([
    { name: 'an e tag without a marker', tags: [['e', E1]] },
    { name: 'an e tag with a three-value form', tags: [['e', E1, '']] },
    { name: 'a bare e tag', tags: [['e'], ['h', CHANNEL]] },
    { name: 'a malformed anchor id', tags: [['e', E1.slice(1), '', 'root']] },
    { name: 'a malformed id on a mention', tags: [['e', 'x'.repeat(64), '', 'mention']] },
  ])('is null for $name, which buzz-acp refuses', ({ tags }) => {
    expect(threadKey(scrapedWithTags(tags, E3))).toBeNull();
  });
});

// Which source of thread anchors wins (the envelope's signed `reply`, then anchors scraped text
// rendered, then the last event's tags), and option errors in full.
describe('thread anchors and option errors', () => {
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
    const reply = { rootEventId: ROOT, parentEventId: null, replyToEventId: LAST };
    test.each([
      ['an envelope follows its signed reply, not the tags', { source: 'envelope-v1', trust: 'asserted', reply }, ROOT],
      ['scraped text follows the anchors the host rendered', { source: 'prompt-text', trust: 'scraped', reply }, ROOT],
      [
        'scraped text without rendered anchors follows the tags',
        { source: 'prompt-text', trust: 'scraped' },
        TAGGED_ROOT,
      ],
      [
        'any other source follows the tags, even next to a reply',
        { source: 'meta-draft', trust: 'asserted', reply },
        TAGGED_ROOT,
      ],
    ])('%s', (_, fields, root) => {
      expect(threadKey(context(fields))).toBe(`buzz:thread:${root}`);
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
});
