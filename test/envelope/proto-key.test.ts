/**
 * An own `"__proto__"` key inside `_meta.buzz` (JSON.parse makes one from text) is data the host
 * signed: it is covered by the attestation, reported, never copied, and never touches a prototype.
 * A copy that silently dropped it (`Object.assign`, a schema-parsed copy) must fail verification.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { readBuzzContext, verifyBuzzEnvelope } from '../../src/index.js';
import { attestBuzzEnvelope } from '../../src/host.js';
import { AGENT } from '../support/keys.js';
import { type JsonObject, recomputeUnkeyed } from './mutations.js';
import { sampleEnvelope } from './sample.js';

const PROTO = '"__proto__":{"polluted":true,"role":"admin"}';

/** The session/prompt JSON text a host sends, parsed the way an ACP transport parses it. */
function overTheWire(buzz: unknown): { _meta: { buzz: JsonObject } } {
  const text = JSON.stringify({ sessionId: 's', prompt: [], _meta: { buzz } });
  return JSON.parse(text) as { _meta: { buzz: JsonObject } };
}

/** The sample envelope re-signed by the host with an own `__proto__` key inserted after `{` at `marker`. */
function hostSignedWithProto(marker: string): JsonObject {
  const text = JSON.stringify(sampleEnvelope()).replace(marker, `${marker}${PROTO},`);
  const parsed = JSON.parse(text) as JsonObject;
  recomputeUnkeyed(parsed);
  return attestBuzzEnvelope(parsed, AGENT.secretKey);
}

describe.each([
  { where: 'at the envelope root', marker: '{', pointer: '/_meta/buzz/__proto__', extra: [] as string[] },
  {
    where: 'inside channel',
    marker: '"channel":{',
    pointer: '/_meta/buzz/channel/__proto__',
    extra: ['delivery_id_mismatch'],
  },
])('an own "__proto__" key $where', ({ marker, pointer, extra }) => {
  let params: ReturnType<typeof overTheWire>;
  let buzz: JsonObject;
  beforeEach(() => {
    params = overTheWire(hostSignedWithProto(marker));
    buzz = params._meta.buzz;
  });

  test('survives signing and the JSON round trip as an own data key', () => {
    expect(JSON.stringify(buzz)).toContain(PROTO);
  });

  test('verifies when the host signed it, is reported, and is not copied', () => {
    const read = readBuzzContext(params, { agentPubkey: AGENT.pubkey });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.context.trust).toBe('verified');
    expect(read.context.diagnostics).toEqual([`unknown key ${pointer} ignored`]);
    expect(JSON.stringify(read.context)).not.toContain('polluted');
    expect(Object.getPrototypeOf(read.context)).toBe(Object.prototype);
    expect(({} as JsonObject).polluted).toBeUndefined();
  });

  test('a copy made with Object.assign (which drops it into the prototype) fails', () => {
    // Object.assign *sets* __proto__, so the copy has no such own key: not what the host signed.
    const copy: JsonObject = Object.assign({}, buzz);
    if (pointer.endsWith('/channel/__proto__')) copy.channel = Object.assign({}, buzz.channel);
    expect(JSON.stringify(copy)).not.toContain('polluted');
    expect(verifyBuzzEnvelope(copy, { agentPubkey: AGENT.pubkey }).failures.map((f) => f.code)).toEqual([
      'payload_hash_mismatch',
      ...extra,
    ]);
  });

  test('a re-serialized copy without the key fails', () => {
    const text = JSON.stringify(buzz).replace(`${PROTO},`, '');
    expect(text).not.toContain('__proto__');
    const dropped: unknown = JSON.parse(text);
    expect(readBuzzContext({ _meta: { buzz: dropped } }, { agentPubkey: AGENT.pubkey })).toMatchObject({
      ok: false,
      error: { code: 'payload_hash_mismatch', path: '/_meta/buzz/attestation/payloadHash' },
    });
  });
});

test('an own "__proto__" key added to an envelope the host signed without it fails', () => {
  const text = JSON.stringify(sampleEnvelope()).replace('{', `{${PROTO},`);
  const injected: unknown = JSON.parse(text);
  expect(Object.hasOwn(injected as object, '__proto__')).toBe(true);
  expect(verifyBuzzEnvelope(injected, { agentPubkey: AGENT.pubkey }).failures.map((f) => f.code)).toEqual([
    'payload_hash_mismatch',
  ]);
  // Without a key the reader still recomputes payloadHash over every own key, so this is caught too.
  expect(readBuzzContext({ _meta: { buzz: injected } })).toMatchObject({
    ok: false,
    error: { code: 'payload_hash_mismatch' },
  });
});
