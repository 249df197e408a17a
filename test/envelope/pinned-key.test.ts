/**
 * The pinned agent key decides `verified`: a good envelope verifies with the key as hex or npub,
 * reads as `asserted` without a key, and any other key is refused — never a silent downgrade.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { type BuzzEnvelopeContext, readBuzzContext, verifyBuzzEnvelope } from '../../src/index.js';
import { attestBuzzEnvelope, buildBuzzEnvelope, signEvent } from '../../src/host.js';
import { AGENT, OWNER, STRANGER } from '../support/keys.js';
import { CHANNEL_ID, promptParams, readEvent, sampleEnvelope, sampleEvents } from './sample.js';

let envelope: ReturnType<typeof sampleEnvelope>;
beforeEach(() => {
  envelope = sampleEnvelope();
});

/** What the base delivery reads as, field by field. */
function expectedContext(trust: 'verified' | 'asserted'): BuzzEnvelopeContext {
  const [first, second] = envelope.events;
  if (first === undefined || second === undefined) throw new Error('sample has two events');
  return {
    source: 'envelope-v1',
    trust,
    channelId: CHANNEL_ID,
    channelType: 'dm',
    events: [readEvent(first), readEvent(second)],
    cancelledEvents: [],
    deliveryId: envelope.deliveryId,
    reply: { rootEventId: envelope.reply.rootEventId, parentEventId: first.id, replyToEventId: second.id },
    owner: OWNER.pubkey,
    agent: AGENT.pubkey,
    members: [
      { pubkey: OWNER.pubkey, role: 'member' },
      { pubkey: AGENT.pubkey, role: 'member' },
    ],
    membershipRevision: envelope.channel.membershipRevision,
    diagnostics: [],
  };
}

describe('a good envelope', () => {
  test.each([
    { form: 'hex', key: AGENT.pubkey },
    { form: 'npub', key: AGENT.npub },
    { form: 'upper-case hex', key: AGENT.pubkey.toUpperCase() },
  ])('verifies with the agent key as $form', ({ key }) => {
    expect(verifyBuzzEnvelope(envelope, { agentPubkey: key })).toEqual({ ok: true, failures: [] });
    expect(readBuzzContext(promptParams(envelope), { agentPubkey: key, minTrust: 'verified' })).toEqual({
      ok: true,
      context: expectedContext('verified'),
    });
  });

  test('reads as asserted without a key', () => {
    expect(readBuzzContext(promptParams(envelope))).toEqual({ ok: true, context: expectedContext('asserted') });
    expect(readBuzzContext(promptParams(envelope), { minTrust: 'asserted' })).toEqual({
      ok: true,
      context: expectedContext('asserted'),
    });
  });

  test("minTrust 'verified' without a key is refused as options that could accept nothing", () => {
    const read = readBuzzContext(promptParams(envelope), { minTrust: 'verified' });
    expect(read).toMatchObject({ ok: false, error: { code: 'invalid_option', path: '/agentPubkey' } });
  });

  test('a fresh build (random BIP-340 aux) verifies too, with the same payloadHash', () => {
    const built = buildBuzzEnvelope({
      agentSecretKey: AGENT.secretKey,
      channelId: CHANNEL_ID,
      ownerPubkey: OWNER.pubkey,
      events: sampleEvents(),
    });
    expect(built.attestation.payloadHash).toBe(envelope.attestation.payloadHash);
    expect(verifyBuzzEnvelope(built, { agentPubkey: AGENT.npub })).toEqual({ ok: true, failures: [] });
  });

  test('events signed by the host helper signEvent (nostr-tools) verify inside a built envelope', () => {
    const event = signEvent(
      { kind: 9, created_at: 1_785_840_000, tags: [['h', CHANNEL_ID]], content: 'signed by nostr-tools' },
      OWNER.secretKey,
    );
    expect(event.pubkey).toBe(OWNER.pubkey);
    const built = buildBuzzEnvelope({
      agentSecretKey: AGENT.secretKey,
      channelId: CHANNEL_ID,
      ownerPubkey: OWNER.pubkey,
      events: [event],
    });
    expect(verifyBuzzEnvelope(built, { agentPubkey: AGENT.pubkey })).toEqual({ ok: true, failures: [] });
  });
});

describe('a wrong key', () => {
  test('pinning a stranger refuses the agent’s envelope: signer_mismatch, agent_mismatch', () => {
    const verification = verifyBuzzEnvelope(envelope, { agentPubkey: STRANGER.pubkey });
    expect(verification.failures.map((f) => [f.code, f.path])).toEqual([
      ['signer_mismatch', '/_meta/buzz/attestation/signerPubkey'],
      ['agent_mismatch', '/_meta/buzz/channel/agentPubkey'],
    ]);
    const read = readBuzzContext(promptParams(envelope), { agentPubkey: STRANGER.npub });
    expect(read).toMatchObject({ ok: false, error: { code: 'signer_mismatch' } });
  });

  test('an envelope re-attested by a stranger is signer_mismatch', () => {
    const forged = attestBuzzEnvelope(envelope, STRANGER.secretKey);
    expect(verifyBuzzEnvelope(forged, { agentPubkey: AGENT.pubkey }).failures.map((f) => f.code)).toEqual([
      'signer_mismatch',
    ]);
    expect(readBuzzContext(promptParams(forged), { agentPubkey: AGENT.pubkey })).toMatchObject({
      ok: false,
      error: { code: 'signer_mismatch', path: '/_meta/buzz/attestation/signerPubkey' },
    });
  });

  test('a stranger’s own, valid envelope is signer_mismatch and agent_mismatch for this agent', () => {
    const theirs = buildBuzzEnvelope({
      agentSecretKey: STRANGER.secretKey,
      channelId: CHANNEL_ID,
      ownerPubkey: OWNER.pubkey,
      events: sampleEvents(),
    });
    expect(verifyBuzzEnvelope(theirs, { agentPubkey: STRANGER.pubkey }).ok).toBe(true);
    expect(verifyBuzzEnvelope(theirs, { agentPubkey: AGENT.pubkey }).failures.map((f) => f.code)).toEqual([
      'signer_mismatch',
      'agent_mismatch',
    ]);
  });

  test('a signerPubkey claiming the agent over a stranger’s signature is attestation_signature_invalid', () => {
    const forged = attestBuzzEnvelope(envelope, STRANGER.secretKey);
    const lying = { ...forged, attestation: { ...forged.attestation, signerPubkey: AGENT.pubkey } };
    expect(verifyBuzzEnvelope(lying, { agentPubkey: AGENT.pubkey }).failures).toEqual([
      {
        code: 'attestation_signature_invalid',
        path: '/_meta/buzz/attestation/signature',
        message: 'the attestation signature does not verify with the pinned key',
      },
    ]);
  });

  test.each([
    { key: 'not a key', code: 'invalid_npub' },
    { key: AGENT.pubkey.slice(1), code: 'invalid_pubkey' },
    { key: 'g'.repeat(64), code: 'invalid_npub' },
  ])('a malformed pinned key ($code) is an option error, not a downgrade', ({ key, code }) => {
    expect(readBuzzContext(promptParams(envelope), { agentPubkey: key })).toMatchObject({
      ok: false,
      error: { code, path: '/agentPubkey' },
    });
  });

  test('a pinned key that is not a string is invalid_option, from both entry points', () => {
    const notAString = 42 as unknown as string;
    expect(() => verifyBuzzEnvelope(envelope, { agentPubkey: notAString })).toThrow(
      expect.objectContaining({ code: 'invalid_option', path: '/agentPubkey' }),
    );
    expect(readBuzzContext(promptParams(envelope), { agentPubkey: notAString })).toMatchObject({
      ok: false,
      error: { code: 'invalid_option', path: '/agentPubkey' },
    });
  });
});
