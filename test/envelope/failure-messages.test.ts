/**
 * Every verification finding carries a sentence a person can act on. Exact texts are pinned here
 * so a finding never ships with an empty or wrong message (and mutation testing sees them).
 */
import { describe, expect, test } from 'vitest';
import { type BuzzIssue, canonicalJson, verifyBuzzEnvelope } from '../../src/index.js';
import { AGENT, STRANGER, attestFixed } from '../support/keys.js';
import { thrownBuzzError } from '../support/thrown.js';
import { flipHex, type JsonObject, recomputeUnkeyed } from './mutations.js';
import { OTHER_CHANNEL_ID, jsonCopy, sampleEnvelope } from './sample.js';

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
  test.each<[string, (envelope: JsonObject) => void, string?]>([
    ['signer_mismatch', () => undefined, STRANGER.pubkey],
    ['payload_hash_mismatch', (e) => void (e.future = 1)],
    ['delivery_id_mismatch', (e) => void (e.deliveryId = flipHex(e.deliveryId as string))],
    [
      'membership_revision_mismatch',
      (e) => void ((e.channel as JsonObject).membershipRevision = 'v1:' + '0'.repeat(64)),
    ],
    ['event_id_mismatch', (e) => void (first(e).id = flipHex(first(e).id as string))],
    ['event_channel_mismatch', (e) => void (first(e).tags = [['h', OTHER_CHANNEL_ID]])],
    ['reply_mismatch', (e) => void ((e.reply as JsonObject).replyToEventId = first(e).id)],
  ])('%s', (code, edit, key) => {
    const failures = failuresOf(edit, key);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) expect(failure.message).toBe(MESSAGES[failure.code]);
    expect(failures.map((failure) => failure.code)).toContain(code);
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
