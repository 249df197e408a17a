import { describe, expect, test } from 'vitest';
import { createBuzzReader, type BuzzMetaError, toNpub } from '../../src/index.js';
import { attestBuzzEnvelope, buildBuzzEnvelope, generateSecretKey, getPublicKey, signEvent } from '../../src/host.js';
import { hexToBytes } from '../../src/envelope/crypto.js';
import {
  jsVerifier,
  loadWasmVerifier,
  withVerdictCache,
  type SignatureVerifier,
} from '../../src/envelope/signatures.js';

const CHANNEL = '0b8f5a9e-3c41-4d2a-9e7f-2a1b3c4d5e6f';
const agent = generateSecretKey();
const owner = generateSecretKey();
const agentPubkey = getPublicKey(agent);

function envelope(content: string) {
  const event = signEvent({ kind: 9, created_at: 1_785_840_000, tags: [['h', CHANNEL]], content }, owner);
  return buildBuzzEnvelope({
    agentSecretKey: agent,
    channelId: CHANNEL,
    ownerPubkey: getPublicKey(owner),
    events: [event],
  });
}
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

async function rejection(promise: Promise<unknown>): Promise<BuzzMetaError> {
  try {
    await promise;
  } catch (error) {
    return error as BuzzMetaError;
  }
  throw new Error('expected a rejection');
}

describe('createBuzzReader', () => {
  test.each(['js', 'wasm', 'auto'] as const)(
    'backend %s verifies a genuine envelope and refuses a broken event signature',
    async (backend) => {
      const reader = await createBuzzReader({ agentPubkey: toNpub(agentPubkey), minTrust: 'verified', backend });
      expect(reader.backend).toBe(backend === 'js' ? 'js' : 'wasm');
      const good = envelope('hello');
      expect(reader.parse(wire({ _meta: { buzz: good } })).trust).toBe('verified');

      const brokenEvent = wire(good) as { events: { sig: string }[] };
      const sig = brokenEvent.events[0]?.sig ?? '';
      (brokenEvent.events[0] as { sig: string }).sig = (sig.startsWith('a') ? 'b' : 'a') + sig.slice(1);
      const reattested = attestBuzzEnvelope(brokenEvent, agent);
      const result = reader.read(wire({ _meta: { buzz: reattested } }));
      expect(!result.ok && [result.error.code, result.error.path]).toEqual([
        'event_signature_invalid',
        '/_meta/buzz/events/0/sig',
      ]);
    },
  );

  test('bad options reject at start-up', async () => {
    expect((await rejection(createBuzzReader({ agentPubkey: 'npub1nope' }))).code).toBe('invalid_npub');
    expect((await rejection(createBuzzReader({ minTrust: 'sure' as 'verified' }))).code).toBe('invalid_option');
    expect((await rejection(createBuzzReader({ cacheSize: -1 }))).path).toBe('/cacheSize');
    expect((await rejection(createBuzzReader({ backend: 'gpu' as 'js' }))).path).toBe('/backend');
    expect((await rejection(createBuzzReader({ limits: { maxEvents: 0 } }))).path).toBe('/limits/maxEvents');
  });

  test('parse throws the read error', async () => {
    const reader = await createBuzzReader({ backend: 'js' });
    expect(() => reader.parse({ _meta: { buzz: 1 } })).toThrow('/_meta/buzz: _meta.buzz must be an object');
  });
});

describe('the verdict cache', () => {
  function counting(base: SignatureVerifier) {
    const calls = { digest: 0, event: 0 };
    const verifier: SignatureVerifier = {
      backend: base.backend,
      verifyDigest: (...args) => {
        calls.digest++;
        return base.verifyDigest(...args);
      },
      verifyEvent: (event) => {
        calls.event++;
        return base.verifyEvent(event);
      },
    };
    return { verifier, calls };
  }

  test('a redelivered envelope costs no signature check; a different signature is checked', () => {
    const { verifier, calls } = counting(jsVerifier);
    const cached = withVerdictCache(verifier, 10);
    const good = envelope('again');
    const event = good.events[0];
    if (event === undefined) throw new Error('no event');
    expect(cached.verifyEvent(event)).toBe(true);
    expect(cached.verifyEvent(event)).toBe(true);
    expect(calls.event).toBe(1);
    const forged = { ...event, sig: '0'.repeat(128) };
    expect(cached.verifyEvent(forged)).toBe(false);
    expect(cached.verifyEvent(forged)).toBe(false);
    expect(calls.event).toBe(3);
  });

  test('attestation digests: a repeat costs nothing; another digest, key or signature is checked', () => {
    const { verifier, calls } = counting(jsVerifier);
    const cached = withVerdictCache(verifier, 10);
    const good = envelope('digest');
    const { signature, payloadHash, signerPubkey } = good.attestation;
    const digest = hexToBytes(payloadHash);
    const check = (sig: string, hash: string, pubkey: string) => cached.verifyDigest(sig, hexToBytes(hash), pubkey);
    expect(cached.verifyDigest(signature, digest, signerPubkey)).toBe(true);
    expect(cached.verifyDigest(signature, digest, signerPubkey)).toBe(true);
    expect(calls.digest).toBe(1);
    // Each part of the triple is part of the cache key: none of these may ride on the first verdict.
    const otherHash = envelope('other digest').attestation.payloadHash;
    expect(check(signature, otherHash, signerPubkey)).toBe(false);
    expect(check(signature, payloadHash, getPublicKey(owner))).toBe(false);
    expect(check('0'.repeat(128), payloadHash, signerPubkey)).toBe(false);
    expect(calls.digest).toBe(4);
    // Negative verdicts are not cached: the same failing triple is checked (and fails) again.
    expect(check('0'.repeat(128), payloadHash, signerPubkey)).toBe(false);
    expect(calls.digest).toBe(5);
  });

  test('the js verifier says false, never throws, for signatures or keys that are not hex of the right size', () => {
    const good = envelope('malformed');
    const { signature, payloadHash, signerPubkey } = good.attestation;
    const digest = hexToBytes(payloadHash);
    expect(jsVerifier.verifyDigest(signature.slice(1), digest, signerPubkey)).toBe(false);
    expect(jsVerifier.verifyDigest(signature, digest, 'zz')).toBe(false);
    expect(jsVerifier.verifyDigest(signature.slice(0, 64), digest, signerPubkey)).toBe(false);
    expect(jsVerifier.verifyDigest(signature, digest, signerPubkey)).toBe(true);
  });

  test('keeps at most maxEntries verdicts, evicting the least recently used', () => {
    const { verifier, calls } = counting(jsVerifier);
    const cached = withVerdictCache(verifier, 2);
    const [a, b, c] = ['a', 'b', 'c'].map((text) => envelope(text).events[0]);
    if (a === undefined || b === undefined || c === undefined) throw new Error('no events');
    cached.verifyEvent(a);
    cached.verifyEvent(b);
    cached.verifyEvent(a); // hit: a becomes the newest
    cached.verifyEvent(c); // evicts b
    expect(calls.event).toBe(3);
    cached.verifyEvent(a);
    expect(calls.event).toBe(3);
    cached.verifyEvent(b);
    expect(calls.event).toBe(4);
  });

  test('the wasm and js backends agree', async () => {
    const wasm = await loadWasmVerifier();
    const good = envelope('agree').events[0];
    if (good === undefined) throw new Error('no event');
    const bad = { ...good, sig: good.sig.slice(0, 127) + (good.sig.endsWith('0') ? '1' : '0') };
    expect([wasm.verifyEvent(good), jsVerifier.verifyEvent(good)]).toEqual([true, true]);
    expect([wasm.verifyEvent(bad), jsVerifier.verifyEvent(bad)]).toEqual([false, false]);
  });
});
