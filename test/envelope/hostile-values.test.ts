/**
 * Hostile values in a delivery, each case a regression test that failed on 0.1.0: hostile keys
 * echoed in messages, `-0` carried into a verified context, a received member list naming someone
 * twice read without a word, hostile thrown values escaping "never throws", and shared
 * sub-objects making the walk exponential.
 */
import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect, test, vi } from 'vitest';
import { canonicalJson, readBuzzContext, verifyBuzzEnvelope } from '../../src/index.js';
import { numRuns } from '../support/fuzz.js';
import { AGENT, OWNER, attestFixed, signEventFixed } from '../support/keys.js';
import { thrownBuzzError } from '../support/thrown.js';
import { type JsonObject, recomputeUnkeyed } from './mutations.js';
import { CHANNEL_ID, envelopeOf, jsonCopy, promptParams, sampleEnvelope } from './sample.js';

// Whole reads of up to 33 MiB and a 50-run property: seconds each on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

const pinned = { agentPubkey: AGENT.pubkey };
const nest = (depth: number): unknown => (depth === 0 ? 1 : [nest(depth - 1)]);
const B = '/_meta/buzz';

describe('-0 where 0 was signed', () => {
  // An event at the Unix epoch, kind 0: both fields signed as 0.
  const zero = () =>
    envelopeOf({
      channelId: CHANNEL_ID,
      ownerPubkey: OWNER.pubkey,
      events: [signEventFixed({ kind: 0, created_at: 0, tags: [['h', CHANNEL_ID]], content: 'epoch' }, OWNER)],
    });
  const minusZero = (field: 'created_at' | 'kind') =>
    JSON.parse(JSON.stringify(zero()).replace(`"${field}":0`, `"${field}":-0`)) as JsonObject;

  test.each(['created_at', 'kind'] as const)(
    '-0 as %s verifies (canonical JSON writes it 0) and reads as 0',
    (field) => {
      const received = minusZero(field);
      const events = received.events as JsonObject[];
      expect(Object.is(events[0]?.[field], -0)).toBe(true);
      expect(verifyBuzzEnvelope(received, pinned)).toEqual({ ok: true, failures: [] });
      const read = readBuzzContext(promptParams(received), { ...pinned, minTrust: 'verified' });
      if (!read.ok) throw read.error;
      const event = read.context.events[0];
      expect(Object.is(field === 'kind' ? event?.kind : event?.createdAt, 0)).toBe(true);
    },
  );

  test('a draft with -0 reads as 0', () => {
    const draft = JSON.parse(
      JSON.stringify({
        channelId: CHANNEL_ID,
        channelType: 'dm',
        events: [{ id: 'a'.repeat(64), sender: OWNER.pubkey, kind: 0, createdAt: 0 }],
      })
        .replace('"createdAt":0', '"createdAt":-0')
        .replace('"kind":0', '"kind":-0'),
    ) as unknown;
    const read = readBuzzContext(promptParams(draft));
    if (!read.ok) throw read.error;
    expect(Object.is(read.context.events[0]?.createdAt, 0)).toBe(true);
    expect(Object.is(read.context.events[0]?.kind, 0)).toBe(true);
  });
});

test('a received envelope listing a member twice verifies with a diagnostic (the builder refuses it)', () => {
  const envelope = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
  const members = (envelope.channel as { members: JsonObject[] }).members;
  const again = members[0];
  if (again === undefined) throw new Error('the sample has members');
  members.push({ pubkey: again.pubkey, role: 'admin' });
  recomputeUnkeyed(envelope);
  const read = readBuzzContext(promptParams(attestFixed(envelope, AGENT)), pinned);
  if (!read.ok) throw read.error;
  expect(read.context.trust).toBe('verified');
  expect(read.context.diagnostics).toEqual([
    `channel.members lists the pubkey of member 2 (${String(again.pubkey)}) more than once`,
  ]);
});

describe('never throws, whatever an in-process object throws', () => {
  const hostileThrown: readonly (readonly [string, () => unknown])[] = [
    ['a Proxy whose every trap throws', () => new Proxy({}, trapsThatThrow())],
    ['a symbol', () => Symbol('x')],
    ['null', () => null],
    [
      'an object whose name getter throws',
      () => ({
        get name(): string {
          throw new Error('name');
        },
      }),
    ],
  ];

  test.each(hostileThrown)('%s thrown by a getter under _meta.buzz is an internal failure', (_name, make) => {
    const buzz = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
    Object.defineProperty(buzz, 'deliveryId', {
      enumerable: true,
      get(): never {
        throw make();
      },
    });
    const read = readBuzzContext(promptParams(buzz), pinned);
    expect(!read.ok && [read.error.code, read.error.path, read.error.message]).toEqual([
      'internal',
      '',
      'an unexpected exception was thrown while reading the request',
    ]);
    expect(verifyBuzzEnvelope(buzz, pinned)).toEqual({
      ok: false,
      failures: [
        { code: 'internal', path: '', message: 'an unexpected exception was thrown while reading the request' },
      ],
    });
  });

  test('a Proxy envelope whose traps throw is an internal failure from both entry points', () => {
    const proxy = new Proxy({}, trapsThatThrow());
    expect(readBuzzContext(promptParams(proxy), pinned)).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(verifyBuzzEnvelope(proxy, pinned)).toMatchObject({ ok: false, failures: [{ code: 'internal' }] });
  });
});

function trapsThatThrow(): ProxyHandler<object> {
  const boom = (): never => {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the hostile thrown value is the point
    throw new Proxy(
      {},
      {
        getPrototypeOf: () => {
          throw new Error('again');
        },
      },
    );
  };
  return { get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom };
}

test('an in-process graph sharing sub-objects costs maxNodes visits at most, not 2^depth', () => {
  let shared: unknown = [1];
  for (let level = 0; level < 30; level++) shared = [shared, shared];
  const buzz = { ...(jsonCopy(sampleEnvelope()) as unknown as JsonObject), future: shared };
  const started = Date.now();
  const read = readBuzzContext(promptParams(buzz), { ...pinned, limits: { maxNodes: 100_000 } });
  expect(!read.ok && [read.error.code, read.error.path]).toEqual(['limit_exceeded', B]);
  // 2^31 visits would take minutes; the bound stops after 100 000 (no timing is asserted beyond sanity).
  expect(Date.now() - started).toBeLessThan(60_000);
});

describe('messages never echo a received key or value, and stay short', () => {
  const MARK = 'ZQXJ';
  const hostileKey = fc
    .string({ unit: 'binary', minLength: 1, maxLength: 40 })
    .map((text) => `${MARK}${text}\u001b[31m\n${MARK}`);
  // Values that make each kind of failure reachable under a hostile key.
  const troublesome = fc.constantFrom<unknown>(
    1.5, // canonical_json
    Number.MAX_SAFE_INTEGER + 2, // canonical_json
    nest(40), // limit_exceeded (depth)
    'v'.repeat(300), // limit_exceeded (total length, with the small limit below)
    { nested: { deeper: [1, 2, 3] } },
  );
  const where = fc.constantFrom(
    '',
    'channel',
    'channel.members.0',
    'reply',
    'events.0',
    'events.0.tags',
    'attestation',
  );

  fcTest.prop([hostileKey, troublesome, where, fc.boolean()], { numRuns: Math.min(numRuns, 50) })(
    'hostile keys anywhere: no message or path repeats them, every message ≤ 300 characters',
    (key, value, at, keyed) => {
      const buzz = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
      let holder: unknown = buzz;
      for (const step of at === '' ? [] : at.split('.')) holder = (holder as Record<string, unknown>)[step];
      Object.defineProperty(holder, key, { value, enumerable: true, configurable: true, writable: true });
      const options = { ...(keyed ? pinned : {}), limits: { maxTotalLength: 9000 } };
      const read = readBuzzContext(promptParams(buzz), options);
      const messages = read.ok ? [] : read.error.issues.flatMap((issue) => [issue.message, issue.path]);
      if (!read.ok) messages.push(read.error.message);
      if (keyed) {
        for (const f of verifyBuzzEnvelope(buzz, { ...pinned, limits: options.limits }).failures) {
          messages.push(f.message, f.path);
        }
      }
      for (const text of messages) {
        expect(text).not.toContain(MARK);
        expect(text.length).toBeLessThanOrEqual(300);
      }
      if (read.ok) {
        for (const line of read.context.diagnostics) expect(line).not.toMatch(/[\p{Cc}\p{Cf}\p{Cs}]/u);
        if (read.context.trust === 'verified') expect(read.context.diagnostics.join('\n')).not.toContain(MARK);
      }
    },
  );

  test('canonicalJson names no received key in its errors', () => {
    const error = thrownBuzzError(() => canonicalJson({ [`${MARK}\u0000`]: { inner: 0.5 } }));
    expect([error.code, error.path, error.message]).toEqual([
      'canonical_json',
      '/*/*',
      '/*/*: numbers must be safe integers (canonical JSON has no fractions or exponents)',
    ]);
  });

  test('33 keys of 1 MiB give a short limit_exceeded message, not a 69M-character one', () => {
    const buzz = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
    for (let i = 0; i < 33; i++) buzz[`${String(i)}${'k'.repeat(1 << 20)}`] = 1;
    const read = readBuzzContext(promptParams(buzz), pinned);
    expect(!read.ok && [read.error.code, read.error.message]).toEqual([
      'limit_exceeded',
      `${B}: _meta.buzz holds more than limits.maxTotalLength (33554432) UTF-16 units of strings`,
    ]);
  });
});
