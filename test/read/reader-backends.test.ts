/**
 * The reader's choice of backend and its verdict cache. A wasm binary that fails to load falls
 * back to pure JS under `'auto'` and is an error under `'wasm'`; the cache never answers for bytes
 * its backend did not verify, and never remembers a refusal.
 */
import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { BuzzMetaError, createBuzzReader } from '../../src/index.js';
import { buildBuzzEnvelope, generateSecretKey, getPublicKey, signEvent } from '../../src/host.js';
import { type SignatureVerifier, withVerdictCache } from '../../src/envelope/signatures.js';
import { numRuns } from '../support/fuzz.js';
import { afterSelfTest, tapWasm } from '../support/wasm-tap.js';

const CHANNEL = '0b8f5a9e-3c41-4d2a-9e7f-2a1b3c4d5e6f';
const agent = generateSecretKey();
const owner = generateSecretKey();
let built: { _meta: { buzz: unknown } } | undefined;
/** One genuine envelope, built on first use inside a test (never while vitest collects the file). */
function params(): { _meta: { buzz: unknown } } {
  built ??= {
    _meta: {
      buzz: buildBuzzEnvelope({
        agentSecretKey: agent,
        channelId: CHANNEL,
        ownerPubkey: getPublicKey(owner),
        events: [signEvent({ kind: 9, created_at: 1_785_840_000, tags: [['h', CHANNEL]], content: 'hi' }, owner)],
      }),
    },
  };
  return built;
}

describe('choosing the backend', () => {
  const failingLoad = { fail: new Error('no wasm here') };

  test("'auto' falls back to pure JS when the wasm backend cannot load, and still verifies", async () => {
    const tap = tapWasm(failingLoad);
    const reader = await createBuzzReader({ agentPubkey: getPublicKey(agent), backend: 'auto' });
    expect([reader.backend, tap.loads]).toEqual(['js', 1]);
    expect(reader.parse(params()).trust).toBe('verified');
  });

  test('no backend option means auto', async () => {
    const tap = tapWasm(failingLoad);
    const reader = await createBuzzReader({ agentPubkey: getPublicKey(agent) });
    expect([reader.backend, tap.loads]).toEqual(['js', 1]);
  });

  test("'wasm' refuses to start when it cannot load", async () => {
    tapWasm(failingLoad);
    const error = await createBuzzReader({ backend: 'wasm' }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(BuzzMetaError);
    expect([(error as BuzzMetaError).code, (error as BuzzMetaError).message]).toEqual([
      'invalid_option',
      '/backend: the wasm backend (nostr-wasm) could not be loaded',
    ]);
  });

  test("'js' never loads wasm", async () => {
    const tap = tapWasm();
    const reader = await createBuzzReader({ backend: 'js' });
    expect([reader.backend, tap.loads]).toEqual(['js', 0]);
  });

  test('the loaded backend is the one used, behind the cache unless cacheSize is 0', async () => {
    let calls = 0;
    tapWasm({
      verify: afterSelfTest((real) => (...args) => {
        calls++;
        return real(...args);
      }),
    });
    const cached = await createBuzzReader({ agentPubkey: getPublicKey(agent) });
    expect(cached.backend).toBe('wasm');
    expect(cached.parse(params()).trust).toBe('verified');
    cached.parse(params());
    // The attestation digest and the one event, once.
    expect(calls).toBe(2);
    calls = 0;
    const uncached = await createBuzzReader({ agentPubkey: getPublicKey(agent), cacheSize: 0 });
    uncached.parse(params());
    uncached.parse(params());
    expect(calls).toBe(4);
  });
});

describe('the verdict cache', () => {
  const hex = (n: number, length: number): string => n.toString(16).padStart(length, '0');
  const call = fc.record({
    kind: fc.constantFrom('digest', 'event'),
    pubkey: fc.nat(2),
    message: fc.nat(2),
    signature: fc.nat(2),
  });

  fcTest.prop(
    [
      fc.array(call, { maxLength: 40 }),
      fc.array(fc.boolean(), { minLength: 54, maxLength: 54 }),
      fc.integer({ min: 1, max: 4 }),
    ],
    {
      numRuns,
    },
  )('never answers for bytes its backend did not verify, and never caches a refusal', (calls, verdicts, size) => {
    const verifiedByBase = new Set<string>();
    let baseCalls = 0;
    const judge = (kind: string, pubkey: string, message: string, signature: string): boolean => {
      baseCalls++;
      const index =
        (kind === 'digest' ? 0 : 27) +
        Number.parseInt(pubkey, 16) * 9 +
        Number.parseInt(message, 16) * 3 +
        Number.parseInt(signature, 16);
      const ok = verdicts[index] === true;
      if (ok) verifiedByBase.add(`${kind} ${pubkey} ${message} ${signature}`);
      return ok;
    };
    const base: SignatureVerifier = {
      backend: 'js',
      verifyDigest: (signature, digest, pubkey) =>
        judge('digest', pubkey, Buffer.from(digest).toString('hex'), signature),
      verifyEvent: (event) => judge('event', event.pubkey, event.id, event.sig),
    };
    const cache = withVerdictCache(base, size);
    for (const c of calls) {
      const pubkey = hex(c.pubkey, 64);
      const message = hex(c.message, 64);
      const signature = hex(c.signature, 128);
      const before = baseCalls;
      const ok =
        c.kind === 'digest'
          ? cache.verifyDigest(signature, Uint8Array.from(Buffer.from(message, 'hex')), pubkey)
          : cache.verifyEvent({ id: message, pubkey, sig: signature, created_at: 0, kind: 9, tags: [], content: '' });
      const answeredFromCache = baseCalls === before;
      if (answeredFromCache) {
        expect(ok).toBe(true);
        expect(verifiedByBase.has(`${c.kind} ${pubkey} ${message} ${signature}`)).toBe(true);
      }
    }
  });

  test('an attestation digest is keyed by its bytes: another digest under the same hex claim is checked', () => {
    let baseCalls = 0;
    const base: SignatureVerifier = {
      backend: 'js',
      verifyDigest: () => {
        baseCalls++;
        return baseCalls === 1;
      },
      verifyEvent: () => false,
    };
    const cache = withVerdictCache(base, 8);
    const pubkey = 'a'.repeat(64);
    const signature = 'b'.repeat(128);
    expect(cache.verifyDigest(signature, new Uint8Array(32).fill(1), pubkey)).toBe(true);
    expect(cache.verifyDigest(signature, new Uint8Array(32).fill(2), pubkey)).toBe(false);
    expect(cache.verifyDigest(signature, new Uint8Array(32).fill(1), pubkey)).toBe(true);
    expect(baseCalls).toBe(2);
  });
});
