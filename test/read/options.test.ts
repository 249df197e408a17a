/**
 * `resolveReadOptions`: read options checked and filled in by one function, which the free
 * functions call once per read and `createBuzzReader` calls once in all.
 */
import { getPublicKey, generateSecretKey } from 'nostr-tools/pure';
import { describe, expect, test } from 'vitest';
import { createBuzzReader, DEFAULT_LIMITS, readBuzzContext, toNpub, type BuzzReaderOptions } from '../../src/index.js';
import { resolveReadOptions } from '../../src/read/options.js';
import { thrownBuzzError } from '../support/thrown.js';

const CHANNEL = '0b8f5a9e-3c41-4d2a-9e7f-2a1b3c4d5e6f';
const ID = 'a'.repeat(64);
const draft = {
  _meta: {
    buzz: { channelId: CHANNEL, channelType: 'dm', events: [{ id: ID, sender: ID, kind: 9, createdAt: 1 }] },
  },
};

/** `options` (and its `limits`) behind a proxy that counts every property read, by name. */
function counted<T extends object>(options: T): { options: T; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const count = <V extends object>(target: V, prefix: string): V =>
    new Proxy(target, {
      get(object, key, receiver) {
        if (typeof key === 'string') reads.set(prefix + key, (reads.get(prefix + key) ?? 0) + 1);
        const value: unknown = Reflect.get(object, key, receiver);
        return key === 'limits' && typeof value === 'object' && value !== null ? count(value, 'limits.') : value;
      },
    });
  return { options: count(options, ''), reads };
}

describe('resolveReadOptions', () => {
  test('fills in every default; default limits are DEFAULT_LIMITS itself', () => {
    const resolved = resolveReadOptions({});
    expect(resolved).toEqual({ agentPubkey: undefined, minTrust: 'scraped', scrape: true, limits: DEFAULT_LIMITS });
    expect(resolved.limits).toBe(DEFAULT_LIMITS);
  });

  test('an npub is pinned as 64 lowercase hex; scrape false and overridden limits are kept', () => {
    const hex = getPublicKey(generateSecretKey());
    const resolved = resolveReadOptions({
      agentPubkey: toNpub(hex),
      minTrust: 'verified',
      scrape: false,
      limits: { maxEvents: 3 },
    });
    expect(resolved).toEqual({
      agentPubkey: hex,
      minTrust: 'verified',
      scrape: false,
      limits: { ...DEFAULT_LIMITS, maxEvents: 3 },
    });
  });

  test('the first bad option is the one reported: agentPubkey, then minTrust, then limits', () => {
    const bad = { agentPubkey: 'nope', minTrust: 'trusted', limits: { maxEvents: 0 } } as never;
    expect(thrownBuzzError(() => resolveReadOptions(bad)).path).toBe('/agentPubkey');
    const noKey = { minTrust: 'trusted', limits: { maxEvents: 0 } } as never;
    const minTrust = thrownBuzzError(() => resolveReadOptions(noKey));
    expect([minTrust.code, minTrust.path]).toEqual(['invalid_option', '/minTrust']);
    const limits = thrownBuzzError(() => resolveReadOptions({ limits: { maxEvents: 0 } }));
    expect([limits.code, limits.path]).toEqual(['invalid_option', '/limits/maxEvents']);
  });
});

describe('options are resolved once', () => {
  // resolveLimits reads every limit name once, given or not.
  const readOnce = {
    agentPubkey: 1,
    minTrust: 1,
    scrape: 1,
    limits: 1,
    ...Object.fromEntries(Object.keys(DEFAULT_LIMITS).map((name) => [`limits.${name}`, 1])),
  };

  test('readBuzzContext reads each option once per call', () => {
    const { options, reads } = counted({ minTrust: 'asserted' as const, scrape: true, limits: { maxEvents: 5 } });
    expect(readBuzzContext(draft, options).ok).toBe(true);
    expect(Object.fromEntries(reads)).toEqual(readOnce);
    expect(readBuzzContext(draft, options).ok).toBe(true);
    expect(reads.get('minTrust')).toBe(2);
  });

  test('createBuzzReader reads each option once, at creation; its reads never look at them again', async () => {
    const { options, reads } = counted<BuzzReaderOptions>({
      backend: 'js',
      cacheSize: 10,
      minTrust: 'asserted',
      scrape: true,
      limits: { maxEvents: 5 },
    });
    const reader = await createBuzzReader(options);
    expect(Object.fromEntries(reads)).toEqual({ ...readOnce, backend: 1, cacheSize: 1 });
    expect(reader.read(draft).ok).toBe(true);
    expect(reader.parse(draft).trust).toBe('asserted');
    expect(Object.fromEntries(reads)).toEqual({ ...readOnce, backend: 1, cacheSize: 1 });
  });
});
