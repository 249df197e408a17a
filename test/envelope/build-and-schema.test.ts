/**
 * The builder's identifier checks and the schema of record on their own: where the builder points
 * when an identifier holds a lone surrogate, the event-count message of the schema of record (the
 * reader's length pre-check answers first, so only direct users of the schema see it), and a
 * job's `dueAt` in a context.
 */
import { describe, expect, test } from 'vitest';
import { buildBuzzEnvelope } from '../../src/host.js';
import { envelopeSchema } from '../../src/envelope/schema.js';
import { envelopeToContext } from '../../src/envelope/to-context.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { AGENT, OWNER } from '../support/keys.js';
import { thrownBuzzError } from '../support/thrown.js';
import { CHANNEL_ID, jobEnvelope, jsonCopy, sampleEnvelope, sampleEvents } from './sample.js';

describe('buildBuzzEnvelope points at the identifier that holds a lone surrogate', () => {
  test.each([
    { field: 'channelId', input: { channelId: CHANNEL_ID.slice(0, 35) + '\ud800', ownerPubkey: OWNER.pubkey } },
    { field: 'ownerPubkey', input: { channelId: CHANNEL_ID, ownerPubkey: OWNER.pubkey.slice(0, 63) + '\udc00' } },
  ])('$field', ({ field, input }) => {
    const error = thrownBuzzError(() =>
      buildBuzzEnvelope({ ...input, agentSecretKey: AGENT.secretKey, events: sampleEvents() }),
    );
    expect([error.code, error.path]).toEqual(['invalid_option', `/${field}`]);
  });
});

describe('buildBuzzEnvelope never reads a non-string as text', () => {
  /** An object whose text would be a valid value, or a lone surrogate. */
  const textLike = (text: string): string => ({ toString: () => text }) as unknown as string;

  test('a channelId that is not a string is refused even when its text is a UUID', () => {
    const error = thrownBuzzError(() =>
      buildBuzzEnvelope({
        channelId: textLike(CHANNEL_ID),
        ownerPubkey: OWNER.pubkey,
        agentSecretKey: AGENT.secretKey,
        events: sampleEvents(),
      }),
    );
    expect([error.code, error.path, error.message]).toEqual([
      'invalid_option',
      '/channelId',
      '/channelId: channelId must be a lowercase, hyphenated UUID',
    ]);
  });

  test('a non-string tag value or content is refused by canonical JSON, not checked as UTF-16 text', () => {
    const [first, second] = sampleEvents();
    const cases = [
      { event: { ...first, tags: [...first.tags, ['t', textLike('\ud800')]] }, path: '/events/0/tags/1/1/*' },
      { event: { ...first, content: textLike('\ud800') }, path: '/events/0/content/*' },
    ];
    for (const { event, path } of cases) {
      const error = thrownBuzzError(() =>
        buildBuzzEnvelope({
          channelId: CHANNEL_ID,
          ownerPubkey: OWNER.pubkey,
          agentSecretKey: AGENT.secretKey,
          events: [event, second],
        }),
      );
      expect([error.code, error.path]).toEqual(['canonical_json', path]);
    }
  });
});

test('the schema of record names limits.maxMembers when the channel lists too many members', () => {
  const envelope = jsonCopy(sampleEnvelope());
  const result = envelopeSchema({ ...DEFAULT_LIMITS, maxMembers: 1 }).safeParse(envelope);
  expect(result.success ? [] : result.error.issues.map((issue) => [issue.path.join('/'), issue.message])).toEqual([
    ['channel/members', 'the channel lists more members than limits.maxMembers (1)'],
  ]);
});

test('the schema of record names limits.maxEvents when there are too many events', () => {
  const envelope = jsonCopy(sampleEnvelope());
  const result = envelopeSchema({ ...DEFAULT_LIMITS, maxEvents: 1 }).safeParse(envelope);
  expect(result.success ? [] : result.error.issues.map((issue) => [issue.path.join('/'), issue.message])).toEqual([
    ['events', 'more events than limits.maxEvents (1)'],
  ]);
});

describe('a job in a context', () => {
  test.each([
    { given: null, read: null },
    { given: -0, read: 0 },
    { given: 1_785_926_400, read: 1_785_926_400 },
  ])('dueAt $given reads as $read', ({ given, read }) => {
    const envelope = envelopeSchema().parse(jsonCopy(jobEnvelope()));
    const job = envelope.job;
    if (job === undefined) throw new Error('the job sample has a job');
    const context = envelopeToContext({ ...envelope, job: { ...job, dueAt: given } }, envelope, true);
    expect(Object.is(context.job?.dueAt, read)).toBe(true);
  });
});
