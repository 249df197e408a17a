import { describe, expect, test } from 'vitest';
import { fc, test as fcTest } from '@fast-check/vitest';
import { BuzzMetaError, isNpub, toHexPubkey, toNpub } from '../src/index.js';
import { numRuns } from './support/fuzz.js';
import { thrownBuzzError } from './support/thrown.js';

// NIP-19's own example key.
const HEX = '3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d';
const NPUB = 'npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6';
// The same 32 bytes under another NIP-19 prefix: nip19.decode accepts it without complaint.
const NOTE = 'note180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkws4c58hj';
// Valid bech32 npubs whose payload is 33 and 20 bytes: nip19.decode does not check the length.
const NPUB_33_BYTES = 'npub1qyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqe77gf';
const NPUB_20_BYTES = 'npub1qyqszqgpqyqszqgpqyqszqgpqyqszqgpmnyran';

describe('toNpub', () => {
  test('encodes the NIP-19 example', () => {
    expect(toNpub(HEX)).toBe(NPUB);
  });
  test.each([
    ['62 hex digits', HEX.slice(2)],
    ['66 hex digits', HEX + 'ab'],
    ['upper-case hex', HEX.toUpperCase()],
    ['non-hex', 'z'.repeat(64)],
    ['an npub', NPUB],
  ])('refuses %s with invalid_pubkey', (_, input) => {
    expect(thrownBuzzError(() => toNpub(input)).code).toBe('invalid_pubkey');
  });
});

describe('toHexPubkey', () => {
  test('decodes an npub', () => {
    expect(toHexPubkey(NPUB)).toBe(HEX);
  });
  test('passes lowercase hex through and lowercases upper-case hex', () => {
    expect(toHexPubkey(HEX)).toBe(HEX);
    expect(toHexPubkey(HEX.toUpperCase())).toBe(HEX);
  });
  test('accepts an all-upper-case npub (bech32 allows it)', () => {
    expect(toHexPubkey(NPUB.toUpperCase())).toBe(HEX);
  });
  test.each([
    ['wrong hex length (63)', HEX.slice(1), 'invalid_pubkey', 'got 63'],
    ['wrong hex length (65)', HEX + 'a', 'invalid_pubkey', 'got 65'],
    ['wrong prefix (note)', NOTE, 'invalid_npub', 'NIP-19 "note"'],
    ['wrong payload length (33 bytes)', NPUB_33_BYTES, 'invalid_npub', 'carries 33'],
    ['wrong payload length (20 bytes)', NPUB_20_BYTES, 'invalid_npub', 'carries 20'],
    ['bad checksum', NPUB.slice(0, -1) + 'q', 'invalid_npub', 'checksum'],
    ['mixed case', 'NPUB1' + NPUB.slice(5), 'invalid_npub', 'checksum'],
    ['very long input', 'npub1' + 'q'.repeat(5000), 'invalid_npub', 'far longer'],
  ])('refuses %s', (_, input, code, words) => {
    const caught = thrownBuzzError(() => toHexPubkey(input));
    expect(caught).toBeInstanceOf(BuzzMetaError);
    expect(caught.code).toBe(code);
    expect(caught.message).toContain(words);
  });
  test('refuses a non-string with invalid_pubkey', () => {
    expect(thrownBuzzError(() => toHexPubkey(42 as unknown as string)).code).toBe('invalid_pubkey');
  });
});

describe('isNpub', () => {
  test('is true only for a well-formed npub', () => {
    expect(isNpub(NPUB)).toBe(true);
    expect(isNpub(NOTE)).toBe(false);
    expect(isNpub(NPUB_33_BYTES)).toBe(false);
    expect(isNpub(NPUB.slice(0, -1) + 'q')).toBe(false);
    expect(isNpub(HEX)).toBe(false);
    expect(isNpub(undefined)).toBe(false);
  });
});

fcTest.prop([fc.uint8Array({ minLength: 32, maxLength: 32 })], { numRuns })(
  'hex → npub → hex round-trips for any 32 bytes',
  (bytes) => {
    const hex = Buffer.from(bytes).toString('hex');
    const npub = toNpub(hex);
    expect(npub).toHaveLength(63);
    expect(isNpub(npub)).toBe(true);
    expect(toHexPubkey(npub)).toBe(hex);
  },
);

fcTest.prop([fc.string({ maxLength: 200 })], { numRuns })('toHexPubkey throws only BuzzMetaError', (text) => {
  try {
    const hex = toHexPubkey(text);
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
  } catch (error) {
    expect(error).toBeInstanceOf(BuzzMetaError);
  }
});

describe('every npub and pubkey error, in full', () => {
  const full = (run: () => unknown): [string, string, string] => {
    const error = thrownBuzzError(run);
    return [error.code, error.path, error.message];
  };

  test.each([
    [
      'toNpub(upper-case hex)',
      () => toNpub(HEX.toUpperCase()),
      'invalid_pubkey',
      'a pubkey must be 64 lowercase hex digits',
    ],
    [
      'toHexPubkey(a number)',
      () => toHexPubkey(42 as unknown as string),
      'invalid_pubkey',
      'a pubkey must be a string (npub or 64 hex digits)',
    ],
    [
      'toHexPubkey(63 hex digits)',
      () => toHexPubkey(HEX.slice(1)),
      'invalid_pubkey',
      'a hex pubkey is 64 hex digits; got 63',
    ],
    // 128 hex digits is still read as hex (the bound is inclusive), and says how long it was.
    [
      'toHexPubkey(128 hex digits)',
      () => toHexPubkey('a'.repeat(128)),
      'invalid_pubkey',
      'a hex pubkey is 64 hex digits; got 128',
    ],
    // Longer hex is refused by the length bound before anything else looks at it.
    [
      'toHexPubkey(129 hex digits)',
      () => toHexPubkey('a'.repeat(129)),
      'invalid_npub',
      'an npub is 63 characters; this input is far longer',
    ],
    // 128 characters exactly is within the bound, so nip19 reads it (and refuses it).
    [
      'toHexPubkey(128-character non-npub)',
      () => toHexPubkey('npub1' + 'q'.repeat(123)),
      'invalid_npub',
      'not a valid npub (bad characters, mixed case or checksum)',
    ],
    ['toHexPubkey(a note)', () => toHexPubkey(NOTE), 'invalid_npub', 'expected an npub, got a NIP-19 "note"'],
    [
      'toHexPubkey(a 33-byte npub)',
      () => toHexPubkey(NPUB_33_BYTES),
      'invalid_npub',
      'an npub carries exactly 32 bytes; this one carries 33',
    ],
  ])('%s', (_, run, code, message) => {
    expect(full(run)).toEqual([code, '', message]);
  });

  test('isNpub never touches a value that is not a string', () => {
    const touched: string[] = [];
    const hostile = new Proxy(
      {},
      {
        get(_target, key) {
          touched.push(String(key));
          return () => NPUB;
        },
      },
    );
    expect(isNpub(hostile)).toBe(false);
    expect(isNpub(new String(NPUB))).toBe(false);
    expect(touched).toEqual([]);
  });
});

describe('toHexPubkey reads as hex only text that is hex to its end', () => {
  test.each(['a'.repeat(63) + 'z', 'A'.repeat(63) + 'g', 'a'.repeat(10) + 'z'])(
    '%s is not hex: an npub error',
    (text) => {
      const error = thrownBuzzError(() => toHexPubkey(text));
      expect([error.code, error.message]).toEqual([
        'invalid_npub',
        'not a valid npub (bad characters, mixed case or checksum)',
      ]);
    },
  );
});
