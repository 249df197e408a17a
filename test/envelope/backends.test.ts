/**
 * The two signature backends give the same verdicts: libsecp256k1 (nostr-wasm's binary, raw
 * BIP-340 verify) and pure JS (@noble/curves). Checked on raw signatures (valid, corrupted, keys
 * off the curve, out-of-range scalars), on every committed vector, and on random envelopes. Also:
 * a 1 MB event (beyond nostr-wasm's own heap) verifies, and a backend that throws is not a verdict.
 */
import { readFileSync } from 'node:fs';
import { schnorr } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { fc } from '@fast-check/vitest';
import { beforeEach, describe, expect, test } from 'vitest';
import {
  BuzzMetaError,
  type BuzzReader,
  type BuzzReadResult,
  createBuzzReader,
  deliveryIdOf,
  type ReadBuzzOptions,
  readBuzzContext,
} from '../../src/index.js';
import { attestBuzzEnvelope, buildBuzzEnvelope, getPublicKey, signEvent } from '../../src/host.js';
import { type RawSchnorrVerify, loadLibsecp256k1 } from '../../src/envelope/libsecp256k1.js';
import { numRuns } from '../support/fuzz.js';
import { afterSelfTest, tapWasm } from '../support/wasm-tap.js';

const CHANNEL = '0b8f5a9e-3c41-4d2a-9e7f-2a1b3c4d5e6f';
const keyOf = (seed: string): Uint8Array => sha256(new TextEncoder().encode(seed));
const AGENT = keyOf('backends agent');
const OWNER = keyOf('backends owner');

let raw: RawSchnorrVerify;
// Loaded before every test, so each test checks a loader of its own.
beforeEach(async () => {
  raw = await loadLibsecp256k1();
});

/** What a read decided, comparable across backends. */
function verdict(result: BuzzReadResult): unknown {
  if (result.ok) return { ok: true, context: result.context };
  return { ok: false, issues: result.error.issues };
}

/** A reader on the wasm backend without the verdict cache, so every signature reaches libsecp256k1. */
async function wasmReader(options: ReadBuzzOptions): Promise<BuzzReader> {
  const reader = await createBuzzReader({ ...options, backend: 'wasm', cacheSize: 0 });
  expect(reader.backend).toBe('wasm');
  return reader;
}

/** The wasm reader's verdict equals pure JS's (`readBuzzContext`); options it refuses, it refuses alike. */
async function sameVerdict(params: unknown, options: ReadBuzzOptions): Promise<void> {
  const js = verdict(readBuzzContext(params, options));
  const wasm = await wasmReader(options).then(
    (reader) => reader.read(params),
    (error: unknown) => {
      if (error instanceof BuzzMetaError) return { ok: false as const, error };
      throw error;
    },
  );
  expect(verdict(wasm)).toEqual(js);
}

function flipHex(hex: string, at: number): string {
  const i = at % hex.length;
  const digit = hex[i] === '0' ? '1' : '0';
  return hex.slice(0, i) + digit + hex.slice(i + 1);
}

describe('raw BIP-340 verify', () => {
  const message = keyOf('message');
  const signature = schnorr.sign(message, OWNER, new Uint8Array(32));
  const pubkey = schnorr.getPublicKey(OWNER);
  const P = 'fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f';
  const N = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141';
  const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
  const bytes = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'hex'));

  test.each([
    ['a valid signature', hex(signature), hex(message), hex(pubkey), true],
    ['r = p (not a field element)', P + hex(signature).slice(64), hex(message), hex(pubkey), false],
    ['s = n (not a scalar)', hex(signature).slice(0, 64) + N, hex(message), hex(pubkey), false],
    ['a pubkey x = p', hex(signature), hex(message), P, false],
    ['a pubkey not on the curve (x = 5)', hex(signature), hex(message), '05'.padStart(64, '0'), false],
    ['all-zero signature', '0'.repeat(128), hex(message), hex(pubkey), false],
    ['another message', hex(signature), hex(keyOf('other')), hex(pubkey), false],
  ])('%s: libsecp256k1 and @noble/curves agree', (_, sig, msg, pub, expected) => {
    expect(raw(bytes(sig), bytes(msg), bytes(pub))).toBe(expected);
    expect(schnorr.verify(bytes(sig), bytes(msg), bytes(pub))).toBe(expected);
  });

  test('inputs of the wrong size are refused, not read past', () => {
    expect(raw(signature.slice(0, 63), message, pubkey)).toBe(false);
    expect(raw(signature, message.slice(1), pubkey)).toBe(false);
    expect(raw(signature, message, Uint8Array.of(2, ...pubkey))).toBe(false);
  });

  test('random signatures and corruptions get the same verdict from both', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.constantFrom('none', 'sig', 'msg', 'key', 'random'),
        fc.nat(511),
        (seed, msg, corruption, bit) => {
          const secret = sha256(seed);
          let sig: Uint8Array = schnorr.sign(msg, secret, new Uint8Array(32));
          let pub: Uint8Array = schnorr.getPublicKey(secret);
          let message: Uint8Array = msg;
          const flip = (data: Uint8Array): Uint8Array => {
            const out = data.slice();
            const index = (bit >> 3) % out.length;
            out[index] = (out[index] ?? 0) ^ (1 << (bit & 7));
            return out;
          };
          if (corruption === 'sig') sig = flip(sig);
          if (corruption === 'msg') message = flip(message);
          if (corruption === 'key') pub = flip(pub);
          if (corruption === 'random') sig = Uint8Array.of(...sha256(msg), ...sha256(seed));
          expect(raw(sig, message, pub)).toBe(schnorr.verify(sig, message, pub));
        },
      ),
      { numRuns: Math.max(20, Math.round(numRuns / 5)) },
    );
  }, 60_000);
});

describe('every committed vector reads the same with both backends', () => {
  interface Vector {
    readonly name: string;
    readonly params: unknown;
    readonly options: ReadBuzzOptions;
  }
  const load = (file: string): Record<string, Vector[]> =>
    JSON.parse(readFileSync(new URL(`../vectors/${file}.json`, import.meta.url), 'utf8')) as Record<string, Vector[]>;
  const draft = load('draft');
  const vectors: Vector[] = [
    ...['envelope-valid', 'envelope-invalid', 'envelope-mutations'].flatMap((file) => load(file).cases ?? []),
    ...(draft.valid ?? []),
    ...(draft.invalid ?? []),
  ];

  test('there are vectors to compare', () => {
    expect(vectors.length).toBeGreaterThan(40);
  });

  test.each(vectors.map((vector) => [vector.name, vector] as const))('%s', async (_, vector) => {
    await sameVerdict(vector.params, vector.options);
  });
});

describe('random envelopes', () => {
  const event = fc.record({
    content: fc.string({ maxLength: 64 }),
    // Tags that carry no thread or channel meaning (the builder refuses unmarked `e` tags).
    extraTags: fc.array(
      fc
        .tuple(fc.constantFrom('t', 'p', 'client', 'x'), fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 }))
        .map(([name, values]) => [name, ...values]),
      { maxLength: 2 },
    ),
  });
  test('verify the same with both backends, genuine or tampered', async () => {
    const readers = new Map([
      [getPublicKey(AGENT), await wasmReader({ agentPubkey: getPublicKey(AGENT) })],
      [getPublicKey(OWNER), await wasmReader({ agentPubkey: getPublicKey(OWNER) })],
    ]);
    fc.assert(
      fc.property(
        fc.array(event, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('none', 'event-sig', 'attestation-sig', 'wrong-agent'),
        fc.nat(127),
        (events, tamper, at) => {
          const signed = events.map((e, i) =>
            signEvent(
              { kind: 9, created_at: 1_785_840_000 + i, tags: [['h', CHANNEL], ...e.extraTags], content: e.content },
              OWNER,
            ),
          );
          let buzz: Record<string, unknown> = JSON.parse(
            JSON.stringify(
              buildBuzzEnvelope({
                agentSecretKey: AGENT,
                channelId: CHANNEL,
                ownerPubkey: getPublicKey(OWNER),
                events: signed,
              }),
            ),
          ) as Record<string, unknown>;
          if (tamper === 'event-sig') {
            const list = buzz.events as { sig: string }[];
            const target = list[at % list.length] as { sig: string };
            target.sig = flipHex(target.sig, at);
            buzz = attestBuzzEnvelope(buzz, AGENT);
          }
          if (tamper === 'attestation-sig') {
            const attestation = buzz.attestation as { signature: string };
            attestation.signature = flipHex(attestation.signature, at);
          }
          const agentPubkey = tamper === 'wrong-agent' ? getPublicKey(OWNER) : getPublicKey(AGENT);
          const wasm = readers.get(agentPubkey)?.read({ _meta: { buzz } });
          expect(wasm && verdict(wasm)).toEqual(verdict(readBuzzContext({ _meta: { buzz } }, { agentPubkey })));
          expect(wasm?.ok).toBe(tamper === 'none');
        },
      ),
      { numRuns: Math.max(10, Math.round(numRuns / 20)) },
    );
  }, 60_000);
});

describe('large events and backend failures', () => {
  const MEGABYTE = 1_000_000;
  const limits = { maxContentLength: 2 * MEGABYTE };

  /**
   * An envelope around one genuine 1 MB event. The builder checks with the default limits, so it
   * is built around a small event and then given the big one, with every hash recomputed.
   */
  function bigEnvelope(): unknown {
    const template = { kind: 9, created_at: 1_785_840_000, tags: [['h', CHANNEL]] };
    const small = signEvent({ ...template, content: 'small' }, OWNER);
    const big = signEvent({ ...template, content: 'x'.repeat(MEGABYTE) }, OWNER);
    const built = buildBuzzEnvelope({
      agentSecretKey: AGENT,
      channelId: CHANNEL,
      ownerPubkey: getPublicKey(OWNER),
      events: [small],
    });
    const reply = { rootEventId: big.id, parentEventId: null, replyToEventId: big.id };
    const body = { version: 1 as const, channel: built.channel, reply, events: [big] };
    return attestBuzzEnvelope(
      { version: 1, deliveryId: deliveryIdOf(body), channel: built.channel, reply, events: [big] },
      AGENT,
    );
  }

  test('a genuine 1 MB event verifies with the wasm backend (nostr-wasm’s own verifyEvent throws on it)', async () => {
    const buzz = bigEnvelope();
    const reader = await createBuzzReader({ agentPubkey: getPublicKey(AGENT), backend: 'wasm', cacheSize: 0, limits });
    const read = reader.read({ _meta: { buzz } });
    expect(read.ok && [reader.backend, read.context.trust]).toEqual(['wasm', 'verified']);

    // A non-literal specifier: nostr-wasm's .d.ts needs DOM types this project does not load.
    const specifier = 'nostr-wasm';
    const { initNostrWasm } = (await import(specifier)) as {
      initNostrWasm: () => Promise<{ verifyEvent: (event: unknown) => void }>;
    };
    const nostrWasm = await initNostrWasm();
    const [first] = (buzz as { events: unknown[] }).events;
    expect(() => {
      nostrWasm.verifyEvent(JSON.parse(JSON.stringify(first)));
    }).toThrow(/memory|abort/i);
  });

  test('a backend that throws gives no verdict: each check runs again in pure JS', async () => {
    tapWasm({
      verify: afterSelfTest(() => () => {
        throw new Error('RuntimeError: unreachable');
      }),
    });
    const options = { agentPubkey: getPublicKey(AGENT), limits };
    const reader = await wasmReader(options);
    const buzz = bigEnvelope();
    const read = reader.read({ _meta: { buzz } });
    expect(read.ok && read.context.trust).toBe('verified');
    expect(verdict(read)).toEqual(verdict(readBuzzContext({ _meta: { buzz } }, options)));
    const forged = JSON.parse(JSON.stringify(buzz)) as { attestation: { signature: string } };
    forged.attestation.signature = flipHex(forged.attestation.signature, 3);
    const refused = reader.read({ _meta: { buzz: forged } });
    expect(!refused.ok && refused.error.code).toBe('attestation_signature_invalid');
  });

  test('a backend that says false is a verdict: no second opinion', async () => {
    let calls = 0;
    tapWasm({
      verify: afterSelfTest(() => () => {
        calls++;
        return 0;
      }),
    });
    const reader = await wasmReader({ agentPubkey: getPublicKey(AGENT), limits });
    const read = reader.read({ _meta: { buzz: bigEnvelope() } });
    expect(!read.ok && read.error.code).toBe('attestation_signature_invalid');
    expect(calls).toBe(1);
  });
});
