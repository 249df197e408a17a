/**
 * The published JSON Schemas accept what the SDK's own host builder and the draft shape produce,
 * tolerate unknown keys, and reject the wire mistakes a host in another language would make.
 * Checked with the small keyword subset in json-schema-lite.ts (no validator dependency).
 */
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildBuzzEnvelope, generateSecretKey, getPublicKey, signEvent } from '../../src/host.js';
import { validate } from './json-schema-lite.js';

const load = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../docs/schema/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const envelopeSchema = load('envelope-v1.json');
const draftSchema = load('draft.json');

const channelId = '7f3a2b10-4c5d-4e6f-8a9b-0c1d2e3f4a5b';
const ownerKey = generateSecretKey();
let envelope: ReturnType<typeof buildBuzzEnvelope>;
beforeEach(() => {
  envelope = buildBuzzEnvelope({
    agentSecretKey: generateSecretKey(),
    channelId,
    ownerPubkey: getPublicKey(ownerKey),
    events: [signEvent({ kind: 9, created_at: 1_785_840_000, tags: [['h', channelId]], content: 'hi' }, ownerKey)],
  });
});
const draft = {
  channelId,
  channelType: 'channel',
  events: [{ id: 'a'.repeat(64), sender: 'b'.repeat(64), kind: 9, createdAt: 1_785_840_000 }],
};

/** Marks a key for removal in {@link edited}. */
const REMOVE = Symbol('remove');
type Edit = readonly [path: readonly (string | number)[], next: unknown];

/** A deep copy of `value` with each edit applied: set the value at the path, or remove the key. */
function edited(value: object, ...edits: Edit[]): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  for (const [path, next] of edits) {
    let node = copy;
    for (const segment of path.slice(0, -1)) node = node[segment] as Record<string | number, unknown>;
    const last = path[path.length - 1] ?? '';
    if (next === REMOVE) Reflect.deleteProperty(node, last);
    else node[last] = next;
  }
  return copy;
}

describe('envelope-v1.json', () => {
  it('accepts an envelope built by buzz-meta/host', () => {
    expect(validate(envelopeSchema, envelope)).toEqual([]);
  });

  it('accepts unknown extra keys at every level', () => {
    const extended = edited(
      envelope,
      [['futureField'], { x: 1 }],
      [['channel', 'topic'], 'ops'],
      [['events', 0, 'extra'], true],
    );
    expect(validate(envelopeSchema, extended)).toEqual([]);
  });

  it('rejects a missing attestation', () => {
    expect(validate(envelopeSchema, edited(envelope, [['attestation'], REMOVE]))).toEqual(['/: missing attestation']);
  });

  it('rejects upper-case hex and an unhyphenated uuid by pattern', () => {
    const bad = edited(
      envelope,
      [['deliveryId'], envelope.deliveryId.toUpperCase()],
      [['channel', 'id'], channelId.replaceAll('-', '').padEnd(36, '0')],
    );
    expect(validate(envelopeSchema, bad)).toEqual(['/deliveryId: pattern', '/channel/id: pattern']);
  });

  it('rejects another version and another algorithm', () => {
    const bad = edited(envelope, [['version'], 2], [['attestation', 'algorithm'], 'ed25519']);
    expect(validate(envelopeSchema, bad)).toEqual([
      '/version: expected 1',
      '/attestation/algorithm: expected "bip340-sha256"',
    ]);
  });

  it('rejects an envelope without events', () => {
    expect(validate(envelopeSchema, edited(envelope, [['events'], []]))).toEqual(['/events: too few items']);
  });
});

describe('draft.json', () => {
  it('accepts the draft shape, with and without cancelledEvents', () => {
    expect(validate(draftSchema, draft)).toEqual([]);
    expect(validate(draftSchema, { ...draft, cancelledEvents: draft.events })).toEqual([]);
  });

  it('accepts unknown extra keys', () => {
    expect(validate(draftSchema, { ...draft, unknownFutureField: { deep: [1] } })).toEqual([]);
  });

  it('accepts every dialect: no channelType, any channelType string, PR #7063 events', () => {
    expect(validate(draftSchema, edited(draft, [['channelType'], REMOVE]))).toEqual([]);
    expect(validate(draftSchema, edited(draft, [['channelType'], 'stream']))).toEqual([]);
    const pr7063 = { channelId, events: [{ id: 'a'.repeat(64), authorPubkey: 'b'.repeat(64) }] };
    expect(validate(draftSchema, pr7063)).toEqual([]);
  });

  it('rejects a fractional kind and an event of no dialect', () => {
    const bad = edited(draft, [['events', 0, 'kind'], 9.5]);
    expect(validate(draftSchema, bad)).toEqual(['/events/0/kind: expected integer']);
    const noDialect = edited(draft, [['events', 0, 'createdAt'], REMOVE]);
    expect(validate(draftSchema, noDialect)).toEqual(['/events/0: no anyOf branch']);
    expect(validate(draftSchema, { channelId, events: [{ id: 'a'.repeat(64) }] })).toEqual([
      '/events/0: no anyOf branch',
    ]);
  });

  it('rejects a non-string channel type, a short sender and a missing events', () => {
    const bad = edited(draft, [['channelType'], 7], [['events', 0, 'sender'], 'b'.repeat(63)]);
    expect(validate(draftSchema, bad)).toEqual([
      '/channelType: expected string',
      '/events/0/sender: too short',
      '/events/0/sender: pattern',
    ]);
    expect(validate(draftSchema, { channelId })).toEqual(['/: missing events']);
  });
});
