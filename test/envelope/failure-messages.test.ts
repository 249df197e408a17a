/**
 * Every verification finding carries a sentence a person can act on. Exact texts are pinned here
 * so a finding never ships with an empty or wrong message.
 */
import { describe, expect, test } from 'vitest';
import { type BuzzIssue, canonicalJson, readBuzzContext, verifyBuzzEnvelope } from '../../src/index.js';
import { buildBuzzEnvelope } from '../../src/host.js';
import { AGENT, OWNER, STRANGER, attestFixed, signEventFixed } from '../support/keys.js';
import { thrownBuzzError } from '../support/thrown.js';
import { flipHex, type JsonObject, recomputeUnkeyed, setAt } from './mutations.js';
import { CHANNEL_ID, OTHER_CHANNEL_ID, T0, firstChatEvent, jsonCopy, promptParams, sampleEnvelope } from './sample.js';

const MESSAGES: Readonly<Record<string, string>> = {
  signer_mismatch: 'the envelope was not attested by this agent’s pinned key',
  agent_mismatch: 'the envelope names another agent than this one',
  payload_hash_mismatch: 'payloadHash does not match the envelope’s contents',
  delivery_id_mismatch: 'deliveryId does not match channel, reply and event ids',
  membership_revision_mismatch: 'membershipRevision does not match the member list',
  event_id_mismatch: 'the event id is not the NIP-01 hash of the event',
  event_channel_mismatch: 'the event is not bound to this channel by an ["h", channel.id] tag',
  reply_mismatch: 'replyToEventId is not the id of the last event',
  attestation_signature_invalid: 'the attestation signature does not verify with the pinned key',
  event_signature_invalid: 'the event signature does not verify with its author’s pubkey',
};

function failuresOf(edit: (envelope: JsonObject) => void, agentPubkey = AGENT.pubkey): readonly BuzzIssue[] {
  const envelope = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
  edit(envelope);
  const verdict = verifyBuzzEnvelope(envelope, { agentPubkey });
  return verdict.failures;
}

const events = (envelope: JsonObject) => envelope.events as JsonObject[];
const first = (envelope: JsonObject): JsonObject => {
  const event = events(envelope)[0];
  if (event === undefined) throw new Error('the sample has events');
  return event;
};

describe('verification findings say what is wrong', () => {
  test.each<[string, string, (envelope: JsonObject) => void, string?]>([
    ['signer_mismatch', 'attestation/signerPubkey', () => undefined, STRANGER.pubkey],
    ['payload_hash_mismatch', 'attestation/payloadHash', (e) => void (e.future = 1)],
    ['delivery_id_mismatch', 'deliveryId', (e) => void (e.deliveryId = flipHex(e.deliveryId as string))],
    [
      'membership_revision_mismatch',
      'channel/membershipRevision',
      (e) => void ((e.channel as JsonObject).membershipRevision = 'v1:' + '0'.repeat(64)),
    ],
    ['event_channel_mismatch', 'events/0/tags', (e) => void (first(e).tags = [['h', OTHER_CHANNEL_ID]])],
    // The channel id in a tag other than `h` binds nothing.
    ['event_channel_mismatch', 'events/0/tags', (e) => void (first(e).tags = [['t', CHANNEL_ID]])],
    ['reply_mismatch', 'reply/replyToEventId', (e) => void ((e.reply as JsonObject).replyToEventId = first(e).id)],
  ])('%s at %s', (code, path, edit, key) => {
    const failures = failuresOf(edit, key);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) expect(failure.message).toBe(MESSAGES[failure.code]);
    expect(failures.map((failure) => [failure.code, failure.path])).toContainEqual([code, `/_meta/buzz/${path}`]);
  });

  test('event_id_mismatch, reached once the envelope and its attestation hold', () => {
    const envelope = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
    first(envelope).id = flipHex(first(envelope).id as string);
    recomputeUnkeyed(envelope, 'eventIds');
    expect(verifyBuzzEnvelope(attestFixed(envelope, AGENT), { agentPubkey: AGENT.pubkey }).failures).toEqual([
      { code: 'event_id_mismatch', path: '/_meta/buzz/events/0/id', message: MESSAGES.event_id_mismatch },
    ]);
    // Without the re-signed attestation the id is never recomputed: the signature decides.
    expect(verifyBuzzEnvelope(envelope, { agentPubkey: AGENT.pubkey }).failures.map((f) => f.code)).toEqual([
      'attestation_signature_invalid',
    ]);
  });

  test('attestation_signature_invalid and event_signature_invalid', () => {
    const badAttestation = failuresOf((e) => {
      const attestation = e.attestation as JsonObject;
      attestation.signature = flipHex(attestation.signature as string);
    });
    expect(badAttestation).toEqual([
      {
        code: 'attestation_signature_invalid',
        path: '/_meta/buzz/attestation/signature',
        message: MESSAGES.attestation_signature_invalid,
      },
    ]);
    const envelope = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
    first(envelope).sig = flipHex(first(envelope).sig as string);
    recomputeUnkeyed(envelope);
    const resigned = attestFixed(envelope, AGENT);
    expect(verifyBuzzEnvelope(resigned, { agentPubkey: AGENT.pubkey }).failures).toEqual([
      { code: 'event_signature_invalid', path: '/_meta/buzz/events/0/sig', message: MESSAGES.event_signature_invalid },
    ]);
  });

  test('a value canonical JSON refuses stands where the hash findings would, among the envelope’s own findings', () => {
    const failures = failuresOf((e) => {
      e.future = 1.5;
      first(e).tags = [['t', CHANNEL_ID]];
      (e.reply as JsonObject).replyToEventId = first(e).id;
    }, STRANGER.pubkey);
    expect(failures.map((f) => [f.code, f.path])).toEqual([
      ['signer_mismatch', '/_meta/buzz/attestation/signerPubkey'],
      ['agent_mismatch', '/_meta/buzz/channel/agentPubkey'],
      ['canonical_json', '/_meta/buzz/*'],
      ['event_channel_mismatch', '/_meta/buzz/events/0/tags'],
      ['reply_mismatch', '/_meta/buzz/reply/replyToEventId'],
    ]);
    expect(failuresOf((e) => void (e.future = 1.5)).map((f) => f.code)).toEqual(['canonical_json']);
  });

  test('a stranger’s key names both the signer and the agent', () => {
    expect(failuresOf(() => undefined, STRANGER.pubkey).map((f) => [f.code, f.message])).toEqual([
      ['signer_mismatch', MESSAGES.signer_mismatch],
      ['agent_mismatch', MESSAGES.agent_mismatch],
    ]);
  });
});

describe('bad options and canonicalization say what is wrong', () => {
  test('agentPubkey', () => {
    const envelope = sampleEnvelope();
    expect(thrownBuzzError(() => verifyBuzzEnvelope(envelope, { agentPubkey: 7 as unknown as string })).message).toBe(
      '/agentPubkey: agentPubkey must be 64 hex digits or an npub',
    );
    const bad = thrownBuzzError(() => verifyBuzzEnvelope(envelope, { agentPubkey: 'abc' }));
    expect([bad.code, bad.path, bad.message]).toEqual([
      'invalid_pubkey',
      '/agentPubkey',
      '/agentPubkey: a hex pubkey is 64 hex digits; got 3',
    ]);
  });

  test('canonicalJson', () => {
    expect(thrownBuzzError(() => canonicalJson({ a: 1.5 })).message).toBe(
      '/*: numbers must be safe integers (canonical JSON has no fractions or exponents)',
    );
    expect(thrownBuzzError(() => canonicalJson([undefined])).message).toBe(
      '/0: a undefined cannot be represented in JSON',
    );
    expect(thrownBuzzError(() => canonicalJson([[1]], 1)).message).toBe(
      '/0: value is nested more deeply than maxDepth allows',
    );
    expect(thrownBuzzError(() => canonicalJson([[1]], 8, 2)).message).toBe(
      'the value holds more than maxNodes values (shared sub-objects count each time)',
    );
  });
});

describe('schema messages say what to fix, never the value', () => {
  const B = '/_meta/buzz';
  const readError = (buzz: unknown): string[] => {
    const read = readBuzzContext(promptParams(buzz));
    return read.ok ? ['ok'] : [read.error.code, read.error.message];
  };
  const withField = (path: string, value: unknown): JsonObject => {
    const envelope = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
    setAt(envelope, path, value);
    return envelope;
  };

  test('an upper-case pubkey: it must be lowercase', () => {
    const upper = AGENT.pubkey.toUpperCase();
    expect(readError(withField('/channel/ownerPubkey', upper))).toEqual([
      'invalid_envelope',
      `${B}/channel/ownerPubkey: must be 64 lowercase hex digits: upper-case A–F are not accepted (write it in lowercase)`,
    ]);
  });

  test('a pubkey of the wrong length, or not hex', () => {
    expect(readError(withField('/channel/ownerPubkey', 'ab'.repeat(31)))).toEqual([
      'invalid_envelope',
      `${B}/channel/ownerPubkey: must be 64 lowercase hex digits; got 62 characters`,
    ]);
    expect(readError(withField('/channel/ownerPubkey', 'g'.repeat(64)))).toEqual([
      'invalid_envelope',
      `${B}/channel/ownerPubkey: must be 64 lowercase hex digits (0–9, a–f)`,
    ]);
  });

  test('an upper-case signature and channel id: lowercase too', () => {
    expect(readError(withField('/attestation/signature', 'A'.repeat(128)))).toEqual([
      'invalid_envelope',
      `${B}/attestation/signature: must be 128 lowercase hex digits: upper-case A–F are not accepted (write it in lowercase)`,
    ]);
    expect(readError(withField('/channel/id', CHANNEL_ID.toUpperCase()))).toEqual([
      'invalid_envelope',
      `${B}/channel/id: must be a lowercase, hyphenated UUID: upper-case A–F are not accepted (write it in lowercase)`,
    ]);
    expect(readError(withField('/channel/id', 'x'.repeat(36)))).toEqual([
      'invalid_envelope',
      `${B}/channel/id: must be a lowercase, hyphenated UUID`,
    ]);
  });

  test('an envelope without version says so, instead of failing as a draft on channelId', () => {
    const envelope = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
    delete envelope.version;
    expect(readError(envelope)).toEqual([
      'invalid_envelope',
      `${B}/version: this looks like a v1 envelope (it has attestation, deliveryId or channel) but has no "version": 1, which every v1 envelope carries`,
    ]);
    expect(readError({ channel: {} })[0]).toBe('invalid_envelope');
    expect(readError({ deliveryId: 'x' })[0]).toBe('invalid_envelope');
    // A draft that also carries a channel object is still read as a draft.
    expect(readError({ channel: {}, channelId: 'x' })[0]).toBe('invalid_draft');
  });

  test('the builder refuses a lone surrogate, pointing at the input field', () => {
    const event = signEventFixed(
      {
        kind: 9,
        created_at: T0,
        tags: [
          ['h', CHANNEL_ID],
          ['t', 'a\uDC00'],
        ],
        content: 'x',
      },
      OWNER,
    );
    const base = { agentSecretKey: AGENT.secretKey, channelId: CHANNEL_ID, ownerPubkey: OWNER.pubkey };
    const error = thrownBuzzError(() => buildBuzzEnvelope({ ...base, events: [event] }));
    expect([error.code, error.path, error.message]).toEqual([
      'invalid_option',
      '/events/0/tags/1/1',
      '/events/0/tags/1/1: the text is not well-formed UTF-16 (it holds a lone surrogate), which buzz-acp never sends',
    ]);
    const content = signEventFixed({ kind: 9, created_at: T0, tags: [['h', CHANNEL_ID]], content: '\uD83D' }, OWNER);
    expect(thrownBuzzError(() => buildBuzzEnvelope({ ...base, events: [content] })).path).toBe('/events/0/content');
    expect(thrownBuzzError(() => buildBuzzEnvelope({ ...base, channelId: '\uD800', events: [content] })).path).toBe(
      '/channelId',
    );
    expect(
      thrownBuzzError(() =>
        buildBuzzEnvelope({
          ...base,
          events: [firstChatEvent()],
          job: { jobId: 'a'.repeat(64), action: 'request', eventId: 'b'.repeat(64), title: 'x\uD800', dueAt: null },
        }),
      ).path,
    ).toBe('/job/title');
  });
});
