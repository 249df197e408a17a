/**
 * Hostile values in a delivery, each case a regression test that failed on 0.1.0: `-0` carried
 * into a verified context, a received member list naming someone twice read without a word,
 * hostile thrown values escaping "never throws", and shared sub-objects making the walk
 * exponential. Hostile keys echoed in messages: redacted-messages.test.ts.
 */
import { describe, expect, test, vi } from 'vitest';
import { readBuzzContext, verifyBuzzEnvelope } from '../../src/index.js';
import { AGENT, OWNER, attestFixed, signEventFixed } from '../support/keys.js';
import { type JsonObject, recomputeUnkeyed } from './mutations.js';
import { CHANNEL_ID, envelopeOf, jsonCopy, promptParams, sampleEnvelope } from './sample.js';

// Whole reads of large in-process graphs: seconds each on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

const pinned = { agentPubkey: AGENT.pubkey };
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

test('an envelope listing one event object twice reads as its JSON copy does', () => {
  // The content text kept for reuse is recorded under the object's last listing only: the first
  // listing has none, and its id is computed from its content afresh.
  const envelope = jsonCopy(sampleEnvelope()) as unknown as JsonObject;
  const [, last] = envelope.events as JsonObject[];
  envelope.events = [last, last];
  recomputeUnkeyed(envelope);
  const shared = attestFixed(envelope, AGENT);
  const read = readBuzzContext(promptParams(shared), pinned);
  expect(read).toEqual(readBuzzContext(promptParams(jsonCopy(shared)), pinned));
  expect(read.ok && [read.context.trust, read.context.events.length]).toEqual(['verified', 2]);
});
