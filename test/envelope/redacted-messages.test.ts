/**
 * Error messages never echo a received key or value and stay short, whatever keys a delivery
 * holds (a regression on 0.1.0, which echoed hostile keys). A property over every place a key can
 * hide; it checks the redaction of pointers and messages, which the mutation gate's two files do
 * not decide, so the gate leaves this file out (stryker.ci.config.mjs).
 */
import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect, test, vi } from 'vitest';
import { canonicalJson, readBuzzContext, verifyBuzzEnvelope } from '../../src/index.js';
import { numRuns } from '../support/fuzz.js';
import { AGENT } from '../support/keys.js';
import { thrownBuzzError } from '../support/thrown.js';
import type { JsonObject } from './mutations.js';
import { jsonCopy, promptParams, sampleEnvelope } from './sample.js';

// A read of 33 MiB of keys and a 50-run property: seconds each on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

const pinned = { agentPubkey: AGENT.pubkey };
const nest = (depth: number): unknown => (depth === 0 ? 1 : [nest(depth - 1)]);
const B = '/_meta/buzz';

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
