/**
 * Upstream's NIP-10 rule (spec prompt-text-formats.md §5, correction): only the reply anchor's `e`
 * tags need markers. A job event's request reference is a plain `["e", id]` (upstream's own tests
 * sign 43002/43004/43005 events so), and an earlier chat event may carry an unmarked `e` tag: such
 * a delivery builds, verifies and reads.
 */
import { expect, test } from 'vitest';
import { readBuzzContext, verifyBuzzEnvelope } from '../../src/index.js';
import { buildBuzzEnvelope, signEvent } from '../../src/host.js';
import { AGENT, OWNER } from '../support/keys.js';
import { CHANNEL_ID, JOB_ID, T0, promptParams } from './sample.js';

const REQUEST_ID = 'a'.repeat(64);
const QUOTED_ID = 'b'.repeat(64);

test('a job event with an unmarked ["e", id] and an earlier chat event with an unmarked e tag build and verify', () => {
  const accepted = signEvent(
    {
      kind: 43_002,
      created_at: T0,
      tags: [
        ['h', CHANNEL_ID],
        ['d', JOB_ID],
        ['e', REQUEST_ID],
      ],
      content: 'accepted',
    },
    OWNER.secretKey,
  );
  const earlierChat = signEvent(
    {
      kind: 9,
      created_at: T0 + 1,
      tags: [
        ['h', CHANNEL_ID],
        ['e', QUOTED_ID],
      ],
      content: 'see that one',
    },
    OWNER.secretKey,
  );
  const anchor = signEvent(
    { kind: 9, created_at: T0 + 2, tags: [['h', CHANNEL_ID]], content: 'go on' },
    OWNER.secretKey,
  );
  const envelope = buildBuzzEnvelope({
    agentSecretKey: AGENT.secretKey,
    channelId: CHANNEL_ID,
    ownerPubkey: OWNER.pubkey,
    events: [accepted, earlierChat, anchor],
    job: { jobId: JOB_ID, action: 'accepted', eventId: accepted.id, title: 'Summarize', dueAt: null },
  });
  expect(envelope.reply).toEqual({ rootEventId: anchor.id, parentEventId: null, replyToEventId: anchor.id });
  expect(verifyBuzzEnvelope(envelope, { agentPubkey: AGENT.pubkey })).toEqual({ ok: true, failures: [] });
  const read = readBuzzContext(promptParams(envelope), { agentPubkey: AGENT.pubkey, minTrust: 'verified' });
  expect(read.ok && [read.context.trust, read.context.events.map((event) => event.id), read.context.job]).toEqual([
    'verified',
    [accepted.id, earlierChat.id, anchor.id],
    { jobId: JOB_ID, action: 'accepted', eventId: accepted.id, title: 'Summarize', dueAt: null },
  ]);
});

test('the anchor itself still needs markers: an unmarked e tag on the last event is refused by the builder', () => {
  const anchor = signEvent(
    {
      kind: 9,
      created_at: T0,
      tags: [
        ['h', CHANNEL_ID],
        ['e', QUOTED_ID],
      ],
      content: 'reply?',
    },
    OWNER.secretKey,
  );
  expect(() =>
    buildBuzzEnvelope({
      agentSecretKey: AGENT.secretKey,
      channelId: CHANNEL_ID,
      ownerPubkey: OWNER.pubkey,
      events: [anchor],
    }),
  ).toThrow(expect.objectContaining({ code: 'invalid_option', path: '/events/0/tags/1' }));
});
