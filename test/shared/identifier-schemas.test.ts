/**
 * The messages of the identifier schemas (src/shared/schema-kit.ts) at the edges of their patterns: the
 * "upper-case" hint only for text that is hex from its first character to its last, and the
 * length message of a UUID next to its shape message.
 */
import { describe, expect, test } from 'vitest';
import { hex64, uuid } from '../../src/shared/schema-kit.js';

const messages = (schema: typeof hex64, value: string): string[] =>
  schema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];

describe('hex64 messages', () => {
  test('upper-case hex gets the lowercase hint', () => {
    expect(messages(hex64, 'A'.repeat(64))).toEqual([
      'must be 64 lowercase hex digits: upper-case A–F are not accepted (write it in lowercase)',
    ]);
  });

  test.each([
    ['a non-hex first character', 'g' + 'A'.repeat(63)],
    ['a non-hex last character', 'A'.repeat(63) + 'g'],
  ])('%s gets the plain message, not the hint', (_name, value) => {
    expect(messages(hex64, value)).toEqual(['must be 64 lowercase hex digits (0–9, a–f)']);
  });
});

describe('uuid messages', () => {
  test('a UUID one character short gets the length message, then the shape message', () => {
    expect(messages(uuid, '0b8f5a9e-3c41-4d2a-9e7f-2a1b3c4d5e6')).toEqual([
      'must be a lowercase, hyphenated UUID (36 characters)',
      'must be a lowercase, hyphenated UUID',
    ]);
  });
});
