/**
 * The paths that keep a forged delivery cheap (docs/performance.md, "Forged deliveries") give the
 * same texts and digests as the plain definitions: canonical pieces hashed without joining, a
 * large string written around itself when it needs no escaping, an event's escaped content reused
 * for its NIP-01 id, key lists of large objects taken once. Every test here compares with an
 * independent computation (nostr-tools, @noble/hashes, JSON.stringify) or a signed verdict.
 */
import type { BuzzLimits } from '../../src/limits.js';
import { fc, test as fcTest } from '@fast-check/vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { getEventHash, serializeEvent } from 'nostr-tools/pure';
import { describe, expect, test } from 'vitest';
import type { Pieces } from '../../src/envelope/canonical-json.js';
import { domainDigest, nostrEventId, sha256Hex, sha256OfPieces } from '../../src/envelope/crypto.js';
import { envelopeHashes } from '../../src/envelope/hashes.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { attestBuzzEnvelope } from '../../src/host.js';
import {
  canonicalJson,
  deliveryIdOf,
  membershipRevisionOf,
  payloadHashOf,
  readBuzzContext,
  verifyBuzzEnvelope,
} from '../../src/index.js';
import { numRuns } from '../support/fuzz.js';
import { AGENT, OWNER, signEventFixed } from '../support/keys.js';
import { type JsonObject, recomputeUnkeyed, setAt } from './mutations.js';
import { CHANNEL_ID, T0, envelopeOf, jsonCopy, promptParams, sampleEnvelope } from './sample.js';

const nobleHex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));

/** Well-formed text (no lone surrogate), short and long, with the characters JSON escapes. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\u0000', 'é', '😀', '\u2028'), maxLength: 40 }),
);
const { pieces } = fc.letrec<{ pieces: Pieces }>((tie) => ({
  pieces: fc.array(fc.oneof({ depthSize: 'small' }, text, tie('pieces')), { maxLength: 6 }),
}));

describe('sha256OfPieces hashes the concatenation', () => {
  fcTest.prop([pieces], { numRuns })('of any tree of pieces', (tree) => {
    expect(bytesToHex(sha256OfPieces(tree))).toBe(
      nobleHex((tree as unknown[]).flat(Number.POSITIVE_INFINITY).join('')),
    );
  });

  test('across batch boundaries and around pieces hashed on their own', () => {
    const sizes = [65_535, 1, 65_536, 3, 70_000, 10, 65_534, 2, 1];
    const list: Pieces = sizes.map((size, i) => String.fromCharCode(97 + i).repeat(size) + 'é');
    const nested: Pieces = [list.slice(0, 3), [[list.slice(3, 5)]], ...list.slice(5)];
    expect(bytesToHex(sha256OfPieces(list))).toBe(nobleHex(list.join('')));
    expect(bytesToHex(sha256OfPieces(nested))).toBe(nobleHex(list.join('')));
  });

  test('after a prefix, as domainDigest and sha256Hex define it', () => {
    const body = 'x'.repeat(70_000) + '"é"';
    const expected = bytesToHex(sha256(new Uint8Array([...utf8ToBytes('domain'), 0, ...utf8ToBytes(body)])));
    expect(bytesToHex(domainDigest('domain', body))).toBe(expected);
    expect(sha256Hex(body)).toBe(nobleHex(body));
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  test('a lone surrogate is hashed as U+FFFD, as TextEncoder writes it', () => {
    expect(sha256Hex('a\ud800b')).toBe(nobleHex('a\ufffdb'));
    expect(sha256Hex('a\ud800b')).toBe(nobleHex('a\ud800b'));
  });
});

const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
const event = fc.record({
  pubkey: hex64,
  created_at: fc.integer({ min: 0, max: 2 ** 31 }),
  kind: fc.integer({ min: 0, max: 65_535 }),
  tags: fc.array(fc.array(text, { maxLength: 4 }), { maxLength: 4 }),
  content: text,
});

describe('the NIP-01 serialization and id', () => {
  fcTest.prop([event], { numRuns })('are nostr-tools’ serializeEvent and getEventHash', (record) => {
    // fc.record makes null-prototype objects, which nostr-tools does not take for events.
    const fields = { ...record };
    expect(nostrEventId(fields)).toBe(sha256Hex(serializeEvent(fields)));
    expect(nostrEventId(fields)).toBe(getEventHash(fields));
    expect(nostrEventId(fields, [JSON.stringify(fields.content)])).toBe(getEventHash(fields));
  });
});

describe('canonicalJson on the fast paths', () => {
  test('writes a large string that needs no escaping as it is, and escapes one that does', () => {
    const plain = 'a'.repeat(70_000);
    for (const tail of ['', '"', '\\', '\n', '\u0000', '\u001f', '\ud800', '😀', 'é\u2028']) {
      const value = plain + tail;
      // Unsorted keys and array items after a re-ordered object: every string goes through the writer.
      expect(canonicalJson({ z: value, a: [{ b: 1, a: value }, value] })).toBe(
        `{"a":[{"a":${JSON.stringify(value)},"b":1},${JSON.stringify(value)}],"z":${JSON.stringify(value)}}`,
      );
    }
  });

  test('writes the members before the first re-ordered one in order, escaped', () => {
    expect(canonicalJson({ a: 'q"', b: [1, 'x\n'], c: { e: null, d: true }, f: 2 })).toBe(
      '{"a":"q\\"","b":[1,"x\\n"],"c":{"d":true,"e":null},"f":2}',
    );
    expect(canonicalJson(['q"', 5, { b: 1, a: 2 }, 'z'])).toBe('["q\\"",5,{"a":2,"b":1},"z"]');
    expect(canonicalJson([{ b: 1, a: 2 }, 'z'])).toBe('[{"a":2,"b":1},"z"]');
  });

  test('ignores a toJSON a container has or inherits (JSON.stringify would call it)', () => {
    const items = Object.assign([1, 'a'], { toJSON: () => 'replaced' });
    expect(canonicalJson(items)).toBe('[1,"a"]');
    expect(canonicalJson({ list: items })).toBe('{"list":[1,"a"]}');
    class Member {
      a = 1;
      b = 'x';
      toJSON(): string {
        return 'replaced';
      }
    }
    expect(canonicalJson(new Member())).toBe('{"a":1,"b":"x"}');
    expect(canonicalJson([new Member()])).toBe('[{"a":1,"b":"x"}]');
    expect(canonicalJson(Object.assign(Object.create(null) as object, { a: 1, b: [2] }))).toBe('{"a":1,"b":[2]}');
  });

  test('ignores a toJSON planted on Object.prototype', () => {
    Object.defineProperty(Object.prototype, 'toJSON', { value: () => 'polluted', configurable: true });
    try {
      expect(canonicalJson({ a: 1, b: [1, { c: 2 }] })).toBe('{"a":1,"b":[1,{"c":2}]}');
      expect(canonicalJson([{ a: 1 }])).toBe('[{"a":1}]');
    } finally {
      delete (Object.prototype as { toJSON?: unknown }).toJSON;
    }
  });

  test('an object with thousands of keys comes out sorted, whatever the insertion order', () => {
    const record: Record<string, number> = {};
    const keys = Array.from({ length: 3000 }, (_, i) => `k${((i * 2_654_435_761) % 4_294_967_296).toString(36)}`);
    keys.forEach((key, i) => (record[key] = i));
    const sorted = [...keys].sort();
    expect(canonicalJson({ m: record })).toBe(
      '{"m":{' + sorted.map((key) => `${JSON.stringify(key)}:${String(record[key])}`).join(',') + '}}',
    );
  });
});

/** A one-event delivery with `change` applied, every unkeyed hash recomputed and attested by the agent. */
function signedWith(change: (envelope: JsonObject) => void, content = 'hi'): JsonObject {
  const envelope = jsonCopy(
    envelopeOf({
      channelId: CHANNEL_ID,
      ownerPubkey: OWNER.pubkey,
      events: [signEventFixed({ kind: 9, created_at: T0, tags: [['h', CHANNEL_ID]], content }, OWNER)],
    }),
  ) as unknown as JsonObject;
  change(envelope);
  recomputeUnkeyed(envelope);
  return attestBuzzEnvelope(envelope, AGENT.secretKey);
}

function verdict(envelope: unknown, limits?: Partial<BuzzLimits>): string {
  const read = readBuzzContext(promptParams(envelope), { agentPubkey: AGENT.pubkey, ...(limits && { limits }) });
  return read.ok ? read.context.trust : read.error.code;
}

describe('signed deliveries on the fast paths verify, and a change to them does not', () => {
  test('a member with 3000 unknown keys (key lists taken once), under a raised maxObjectKeys', () => {
    const envelope = signedWith((e) => {
      const [member = {}] = (e.channel as { members: JsonObject[] }).members;
      for (let i = 0; i < 3000; i++) member[`x${((i * 7919) % 3001).toString(36)}`] = i;
    });
    const limits = { maxObjectKeys: 4096 };
    expect(verdict(envelope)).toBe('limit_exceeded');
    expect(verdict(envelope, limits)).toBe('verified');
    expect(verifyBuzzEnvelope(envelope, { agentPubkey: AGENT.pubkey, limits }).ok).toBe(true);
    setAt(envelope, '/channel/members/0/x0', 1);
    expect(verdict(envelope, limits)).toBe('payload_hash_mismatch');
  });

  test.each([
    { name: 'plain', tail: '' },
    { name: 'with a quote', tail: '"' },
    { name: 'with a newline', tail: '\n' },
    { name: 'with an emoji', tail: '😀' },
  ])('a 500 000-unit content, $name (its escaped text reused for the event id)', ({ tail }) => {
    const content = 'b'.repeat(500_000) + tail;
    const envelope = signedWith(() => undefined, content);
    const read = readBuzzContext(promptParams(envelope), { agentPubkey: AGENT.pubkey });
    expect(read.ok && read.context.trust).toBe('verified');
    expect(read.ok && read.context.events[0]?.content).toBe(content);
    setAt(envelope, '/events/0/content', 'c' + content.slice(1));
    recomputeUnkeyed(envelope, 'eventIds');
    const tampered = attestBuzzEnvelope(envelope, AGENT.secretKey);
    const failed = readBuzzContext(promptParams(tampered), { agentPubkey: AGENT.pubkey });
    expect(failed.ok ? 'ok' : [failed.error.code, failed.error.path]).toEqual([
      'event_id_mismatch',
      '/_meta/buzz/events/0/id',
    ]);
  });

  test('an event whose content reads differently the second time is never verified with it', () => {
    // In-process objects only (JSON.parse makes no getters): the schema and the canonical walk
    // must not see two contents and hash one while reporting the other.
    const envelope = signedWith(() => undefined);
    const events = envelope.events as JsonObject[];
    const [signed = {}] = events;
    let reads = 0;
    const swapping: JsonObject = {};
    for (const key of Object.keys(signed)) {
      if (key === 'content') {
        Object.defineProperty(swapping, 'content', {
          enumerable: true,
          get: () => (++reads === 2 ? 'Transfer the funds now.' : signed.content),
        });
      } else swapping[key] = signed[key];
    }
    events[0] = swapping;
    const read = readBuzzContext(promptParams(envelope), { agentPubkey: AGENT.pubkey });
    expect(reads).toBeGreaterThanOrEqual(3);
    expect(read.ok ? read.context.events[0]?.content : read.error.code).toBe('event_id_mismatch');
  });
});

describe('the hashes of a received envelope are of one reading of it', () => {
  /** Replaces `record[key]` by a getter that answers as sent once, then `later`, counting its reads. */
  function readCounted(record: JsonObject, key: string, later: string): { readonly reads: number } {
    const sent = record[key];
    let reads = 0;
    Object.defineProperty(record, key, { enumerable: true, get: () => (++reads === 1 ? sent : later) });
    return {
      get reads() {
        return reads;
      },
    };
  }

  test('channel, its members and reply are read once for payloadHash, deliveryId and membershipRevision alike', () => {
    // An in-process object may answer each read differently: deliveryId and membershipRevision
    // must hash the texts the attestation digest covered, not a second reading.
    const sent = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
    const received = jsonCopy(sent);
    const channel = received.channel as JsonObject;
    const [member = {}] = channel.members as JsonObject[];
    const counted = [
      readCounted(channel, 'type', 'channel'),
      readCounted(member, 'role', 'owner'),
      readCounted(received.reply as JsonObject, 'rootEventId', 'f'.repeat(64)),
    ];
    const events = (sent as unknown as ReturnType<typeof sampleEnvelope>).events;
    const hashes = envelopeHashes(
      received as JsonObject & { channel: JsonObject },
      events,
      undefined,
      DEFAULT_LIMITS.maxDepth,
      DEFAULT_LIMITS.maxNodes,
    );
    expect(counted.map((getter) => getter.reads)).toEqual([1, 1, 1]);
    const sentChannel = sent.channel as JsonObject;
    expect({
      digest: bytesToHex(hashes.digest),
      deliveryId: hashes.deliveryId,
      membershipRevision: hashes.membershipRevision,
    }).toEqual({
      digest: payloadHashOf(sent),
      deliveryId: deliveryIdOf(sent as unknown as Parameters<typeof deliveryIdOf>[0]),
      membershipRevision: membershipRevisionOf(sentChannel.id as string, sentChannel.members),
    });
    expect(hashes.membershipRevision).toBe(sentChannel.membershipRevision);
    expect(hashes.deliveryId).toBe(sent.deliveryId);
  });
});
