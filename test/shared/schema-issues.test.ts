/**
 * How zod findings become BuzzIssues (src/shared/schema-kit.ts), seen through real reads: which findings
 * count as size bounds, that a size finding comes first, and that an over-long text is reported
 * once (its other checks are not run on it).
 */
import { describe, expect, test } from 'vitest';
import { readBuzzContext } from '../../src/index.js';
import type { BuzzMetaError } from '../../src/errors.js';
import { jobEnvelope, promptParams, sampleEnvelope } from '../envelope/sample.js';

function errorOf(buzz: unknown, limits: Parameters<typeof readBuzzContext>[1] = {}): BuzzMetaError {
  const result = readBuzzContext(promptParams(buzz), limits);
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

describe('size findings', () => {
  test('an over-long text is one limit_exceeded finding, even when it is also not well-formed', () => {
    const envelope = JSON.parse(JSON.stringify(sampleEnvelope())) as { events: { content: string }[] };
    const first = envelope.events[0];
    if (first === undefined) throw new Error('sample has events');
    first.content = `${'x'.repeat(40)}\uD800`;
    const error = errorOf(envelope, { limits: { maxContentLength: 16 } });
    // The sample's second event is over 16 units too; the first would add a UTF-16 finding if the
    // well-formedness check ran after the length check failed.
    expect(error.issues.map((issue) => [issue.code, issue.path])).toEqual([
      ['limit_exceeded', '/_meta/buzz/events/0/content'],
      ['limit_exceeded', '/_meta/buzz/events/1/content'],
    ]);
  });

  test('a too-long string of zod’s own max (the job title) is a size finding', () => {
    const envelope = JSON.parse(JSON.stringify(jobEnvelope())) as { job: { title: string } };
    envelope.job.title = 'x'.repeat(1000);
    const error = errorOf(envelope);
    expect(error.issues.length).toBeGreaterThan(0);
    expect(error.issues.map((issue) => issue.code)).toEqual(error.issues.map(() => 'limit_exceeded'));
  });

  test('a size finding comes first, before shape findings at earlier paths', () => {
    const envelope = JSON.parse(JSON.stringify(sampleEnvelope())) as {
      deliveryId: string;
      events: { content: string }[];
    };
    envelope.deliveryId = 'not hex';
    const first = envelope.events[0];
    if (first === undefined) throw new Error('sample has events');
    first.content = 'x'.repeat(40);
    const error = errorOf(envelope, { limits: { maxContentLength: 16 } });
    expect(error.code).toBe('limit_exceeded');
    expect(error.issues.map((issue) => [issue.code, issue.path])).toEqual([
      ['limit_exceeded', '/_meta/buzz/events/0/content'],
      ['limit_exceeded', '/_meta/buzz/events/1/content'],
      ['invalid_envelope', '/_meta/buzz/deliveryId'],
      ['invalid_envelope', '/_meta/buzz/deliveryId'],
    ]);
  });
});
