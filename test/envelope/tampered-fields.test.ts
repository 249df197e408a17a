/**
 * Wire-contract §1: every field upstream's tests mutate must fail verification, both as tampered
 * and after the attacker recomputes every unkeyed hash. Exact codes and paths, table-driven.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { readBuzzContext, verifyBuzzEnvelope } from '../../src/index.js';
import { AGENT } from '../support/keys.js';
import { UPSTREAM_MUTATIONS, getAt, mutated } from './mutations.js';
import { promptParams, sampleEnvelope } from './sample.js';

let base: ReturnType<typeof sampleEnvelope>;
beforeEach(() => {
  base = sampleEnvelope();
});

/** The list in wire-contract §1, expanded: the table must cover exactly these fields. */
const CONTRACT_PATHS = [
  '/version',
  '/channel/id',
  '/channel/type',
  '/channel/ownerPubkey',
  '/channel/agentPubkey',
  '/channel/members/0/pubkey',
  '/channel/members/0/role',
  '/reply/rootEventId',
  '/reply/parentEventId',
  '/reply/replyToEventId',
  '/events/0/id',
  '/events/0/pubkey',
  '/events/0/created_at',
  '/events/0/kind',
  '/events/0/tags',
  '/events/0/content',
  '/events/0/sig',
  '/deliveryId',
  '/channel/membershipRevision',
  '/attestation/algorithm',
  '/attestation/signerPubkey',
  '/attestation/payloadHash',
  '/attestation/signature',
];

test('the base envelope verifies with the pinned agent key', () => {
  expect(verifyBuzzEnvelope(base, { agentPubkey: AGENT.pubkey })).toEqual({ ok: true, failures: [] });
});

test('the table covers exactly the upstream mutation list', () => {
  expect(UPSTREAM_MUTATIONS.map((mutation) => mutation.path)).toEqual(CONTRACT_PATHS);
});

describe.each(UPSTREAM_MUTATIONS)('mutating $path', (mutation) => {
  test.each([
    { stage: 'as tampered', recompute: false, verdict: mutation.before },
    { stage: 'after recomputing unkeyed hashes', recompute: true, verdict: mutation.after },
  ])('is rejected $stage', ({ recompute, verdict }) => {
    const envelope = mutated(base, mutation, recompute);
    // The mutation really changed the field (and a recompute did not undo it).
    expect(JSON.stringify(getAt(envelope, mutation.path))).not.toBe(JSON.stringify(getAt(base, mutation.path)));

    const verification = verifyBuzzEnvelope(envelope, { agentPubkey: AGENT.pubkey });
    expect(verification.ok).toBe(false);
    expect(verification.failures.map((failure) => failure.code)).toEqual(verdict.codes);
    expect(verification.failures[0]?.path).toBe(verdict.path);

    const read = readBuzzContext(promptParams(envelope), { agentPubkey: AGENT.pubkey });
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.error.code).toBe(verdict.readCode ?? verdict.codes[0]);
    expect(read.error.path).toBe(verdict.path);
    expect(read.error.issues.map((issue) => issue.code)).toEqual(
      verdict.readCode === undefined ? verdict.codes : [verdict.readCode],
    );
  });
});

test('without a pinned key, recomputed hashes make a content mutation pass as asserted, never verified', () => {
  // Why trust is a label: unkeyed hashes prove consistency, not origin.
  const content = UPSTREAM_MUTATIONS.find((mutation) => mutation.path === '/events/0/content');
  if (content === undefined) throw new Error('missing row');
  const forged = mutated(base, content, true);
  const read = readBuzzContext(promptParams(forged));
  expect(read.ok && read.context.trust).toBe('asserted');
  expect(readBuzzContext(promptParams(forged), { minTrust: 'verified', agentPubkey: AGENT.pubkey })).toMatchObject({
    ok: false,
    error: { code: 'attestation_signature_invalid' },
  });
});
