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
