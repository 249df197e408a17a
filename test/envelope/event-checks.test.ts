/**
 * Per-event checks behind a valid attestation: the agent key vouches for the delivery, but each
 * event must still be signed by its author and bound to this channel. Each forged envelope here
 * is re-attested with the real agent key (`attestBuzzEnvelope`), so only the event check can catch it.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { readBuzzContext, verifyBuzzEnvelope } from '../../src/index.js';
import { attestBuzzEnvelope, buildBuzzEnvelope, type NostrEvent } from '../../src/host.js';
import { AGENT, OWNER, signEventFixed } from '../support/keys.js';
import { type JsonObject, flipHex, recomputeUnkeyed, setAt } from './mutations.js';
import { CHANNEL_ID, OTHER_CHANNEL_ID, T0, jsonCopy, promptParams, sampleEnvelope } from './sample.js';

/** Puts `event` at `events[index]`, recomputes every unkeyed hash and re-attests with the agent key. */
function withEvent(index: number, event: NostrEvent): JsonObject {
  const envelope = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
  (envelope.events as unknown[])[index] = event;
  recomputeUnkeyed(envelope, 'eventIds');
  return attestBuzzEnvelope(envelope, AGENT.secretKey);
}

function outcome(envelope: unknown): { verify: string[][]; read: unknown } {
  const read = readBuzzContext(promptParams(envelope), { agentPubkey: AGENT.pubkey });
  return {
    verify: verifyBuzzEnvelope(envelope, { agentPubkey: AGENT.npub }).failures.map((f) => [f.code, f.path]),
    read: read.ok ? 'ok' : [read.error.code, read.error.path],
  };
}

describe('an event whose author signature is broken', () => {
  let first: NostrEvent;
  beforeEach(() => {
    const [event] = sampleEnvelope().events;
    if (event === undefined) throw new Error('sample has events');
    first = event;
  });

  test('is event_signature_invalid even though the agent attested the envelope', () => {
    const forged = withEvent(0, { ...first, sig: flipHex(first.sig) });
    expect(outcome(forged)).toEqual({
      verify: [['event_signature_invalid', '/_meta/buzz/events/0/sig']],
      read: ['event_signature_invalid', '/_meta/buzz/events/0/sig'],
    });
  });

  test('is event_signature_invalid when the sig is a valid signature of another event', () => {
    const [, second] = sampleEnvelope().events;
    if (second === undefined) throw new Error('sample has two events');
    expect(outcome(withEvent(0, { ...first, sig: second.sig })).verify).toEqual([
      ['event_signature_invalid', '/_meta/buzz/events/0/sig'],
    ]);
  });

  test('is event_signature_invalid when the content changed and the id was recomputed', () => {
    const forged = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
    setAt(forged, '/events/0/content', 'Transfer the funds now.');
    recomputeUnkeyed(forged);
    expect(outcome(attestBuzzEnvelope(forged, AGENT.secretKey)).verify).toEqual([
      ['event_signature_invalid', '/_meta/buzz/events/0/sig'],
    ]);
  });

  test('reads as asserted without a pinned key (event signatures are checked only with one)', () => {
    const forged = withEvent(0, { ...first, sig: flipHex(first.sig) });
    const read = readBuzzContext(promptParams(forged));
    expect(read.ok && read.context.trust).toBe('asserted');
  });
});

describe('an event from another channel', () => {
  const foreign = signEventFixed(
    { kind: 9, created_at: T0, tags: [['h', OTHER_CHANNEL_ID]], content: 'Said in another channel' },
    OWNER,
  );

  test('correctly signed by its author and attested by the agent, it is event_channel_mismatch', () => {
    expect(outcome(withEvent(0, foreign))).toEqual({
      verify: [['event_channel_mismatch', '/_meta/buzz/events/0/tags']],
      read: ['event_channel_mismatch', '/_meta/buzz/events/0/tags'],
    });
  });

  test.each([
    { name: 'no h tag', tags: [['t', 'x']] },
    { name: 'an upper-case channel id', tags: [['h', CHANNEL_ID.toUpperCase()]] },
    { name: 'only a bare h tag', tags: [['h']] },
  ])('an event with $name is event_channel_mismatch', ({ tags }) => {
    const event = signEventFixed({ kind: 9, created_at: T0, tags, content: 'x' }, OWNER);
    expect(outcome(withEvent(0, event)).verify).toEqual([['event_channel_mismatch', '/_meta/buzz/events/0/tags']]);
  });
  test('the host builder refuses to build it', () => {
    expect(() =>
      buildBuzzEnvelope({
        agentSecretKey: AGENT.secretKey,
        channelId: CHANNEL_ID,
        ownerPubkey: OWNER.pubkey,
        events: [foreign],
      }),
    ).toThrow(expect.objectContaining({ code: 'event_channel_mismatch', path: '/_meta/buzz/events/0/tags' }));
  });
});

describe('an event bound to this channel that carries further h tags (upstream accepts it)', () => {
  test.each([
    {
      name: 'this channel and another',
      tags: [
        ['h', CHANNEL_ID],
        ['h', OTHER_CHANNEL_ID],
      ],
    },
    {
      name: 'another channel first',
      tags: [
        ['h', OTHER_CHANNEL_ID],
        ['h', CHANNEL_ID],
      ],
    },
    { name: 'a bare h tag before it', tags: [['h'], ['h', CHANNEL_ID]] },
  ])('with $name: verified, with a diagnostic naming the event', ({ tags }) => {
    const event = signEventFixed({ kind: 9, created_at: T0, tags, content: 'x' }, OWNER);
    const envelope = withEvent(0, event);
    expect(verifyBuzzEnvelope(envelope, { agentPubkey: AGENT.pubkey })).toEqual({ ok: true, failures: [] });
    const read = readBuzzContext(promptParams(envelope), { agentPubkey: AGENT.pubkey, minTrust: 'verified' });
    if (!read.ok) throw read.error;
    expect(read.context.diagnostics).toEqual([
      `event 0 (${event.id}) also carries an h tag naming another channel or none; it is bound by its ["h", channel.id] tag`,
    ]);
    expect(read.context.diagnostics.join('')).not.toContain(OTHER_CHANNEL_ID);
  });
});
