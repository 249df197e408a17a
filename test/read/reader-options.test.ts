/**
 * `createBuzzReader` options, checked once at start-up: each bad option is refused with its own
 * path and message, each good one reaches every read.
 */
import { describe, expect, test } from 'vitest';
import { BuzzMetaError, createBuzzReader, DEFAULT_LIMITS, type BuzzReaderOptions } from '../../src/index.js';
import { resolveLimits, limitsKey } from '../../src/limits.js';
import { thrownBuzzError } from '../support/thrown.js';

const CHANNEL = '0b8f5a9e-3c41-4d2a-9e7f-2a1b3c4d5e6f';
const ID = 'a'.repeat(64);
const draft = (events: number) => ({
  _meta: {
    buzz: {
      channelId: CHANNEL,
      channelType: 'dm',
      events: Array.from({ length: events }, (_, i) => ({ id: ID, sender: ID, kind: 9, createdAt: i })),
    },
  },
});

async function refusal(options: unknown): Promise<[string, string]> {
  try {
    await createBuzzReader({ backend: 'js', ...(options as BuzzReaderOptions) });
  } catch (error) {
    if (error instanceof BuzzMetaError) return [error.code, error.message];
    throw error;
  }
  throw new Error('expected the reader to be refused');
}

describe('createBuzzReader options', () => {
  test.each([[-1], [1.5], [Number.NaN], ['10' as unknown as number]])('cacheSize %s is refused', async (cacheSize) => {
    expect(await refusal({ cacheSize })).toEqual([
      'invalid_option',
      '/cacheSize: cacheSize must be a non-negative integer',
    ]);
  });

  test('cacheSize 0 (no cache) and 1 are accepted', async () => {
    await expect(createBuzzReader({ backend: 'js', cacheSize: 0 })).resolves.toMatchObject({ backend: 'js' });
    await expect(createBuzzReader({ backend: 'js', cacheSize: 1 })).resolves.toMatchObject({ backend: 'js' });
  });

  test('an unknown backend is refused', async () => {
    expect(await refusal({ backend: 'gpu' })).toEqual([
      'invalid_option',
      '/backend: backend must be "auto", "wasm" or "js"',
    ]);
  });

  test('a bad minTrust is refused at start-up, not on the first prompt', async () => {
    expect(await refusal({ minTrust: 'sure' })).toEqual([
      'invalid_option',
      '/minTrust: minTrust must be "verified", "asserted" or "scraped"',
    ]);
  });

  test('minTrust reaches every read', async () => {
    const reader = await createBuzzReader({ backend: 'js', minTrust: 'verified', agentPubkey: 'a'.repeat(64) });
    const read = reader.read(draft(1));
    expect(!read.ok && read.error.code).toBe('trust_too_low');
  });

  test('scrape: false reaches every read', async () => {
    const reader = await createBuzzReader({ backend: 'js', scrape: false });
    const read = reader.read({ prompt: [{ type: 'text', text: 'hello' }] });
    expect(!read.ok && [read.error.code, read.error.message]).toEqual([
      'no_buzz_context',
      '/_meta/buzz: the request has no _meta.buzz, and scraping prompt text is turned off',
    ]);
  });

  test('limits reach every read', async () => {
    const reader = await createBuzzReader({ backend: 'js', limits: { maxEvents: 1 } });
    expect(reader.read(draft(1)).ok).toBe(true);
    const read = reader.read(draft(2));
    expect(!read.ok && read.error.code).toBe('limit_exceeded');
  });

  test('parse returns the context and throws the error read would return', async () => {
    const reader = await createBuzzReader({ backend: 'js' });
    expect(reader.parse(draft(1)).trust).toBe('asserted');
    const error = thrownBuzzError(() => reader.parse(null));
    expect([error.code, error.path]).toEqual(['invalid_params', '']);
  });
});

describe('resolveLimits', () => {
  test('no overrides, or overrides equal to the defaults, give DEFAULT_LIMITS itself', () => {
    expect(resolveLimits(undefined)).toBe(DEFAULT_LIMITS);
    expect(resolveLimits({})).toBe(DEFAULT_LIMITS);
    expect(resolveLimits({ maxEvents: DEFAULT_LIMITS.maxEvents })).toBe(DEFAULT_LIMITS);
    expect(resolveLimits({ unknownLimit: 0 } as never)).toBe(DEFAULT_LIMITS);
  });

  test('an override gives a frozen copy with only that bound changed', () => {
    const limits = resolveLimits({ maxEvents: 1 });
    expect(limits).not.toBe(DEFAULT_LIMITS);
    expect(Object.isFrozen(limits)).toBe(true);
    expect(limits).toEqual({ ...DEFAULT_LIMITS, maxEvents: 1 });
  });

  test.each([[0], [-1], [1.5], [2 ** 53], [Number.POSITIVE_INFINITY], ['5']])('%s is not a limit', (value) => {
    const error = thrownBuzzError(() => resolveLimits({ maxTags: value as number }));
    expect([error.code, error.path, error.message]).toEqual([
      'invalid_option',
      '/limits/maxTags',
      '/limits/maxTags: a limit must be a positive integer',
    ]);
  });

  test('DEFAULT_LIMITS is frozen', () => {
    expect(Object.isFrozen(DEFAULT_LIMITS)).toBe(true);
  });

  test('limitsKey lists every bound in order, so two sets of limits share a key only when equal', () => {
    expect(limitsKey(DEFAULT_LIMITS)).toBe(Object.values(DEFAULT_LIMITS).join(','));
    expect(limitsKey(resolveLimits({ maxDepth: 7 }))).not.toBe(limitsKey(DEFAULT_LIMITS));
  });
});
