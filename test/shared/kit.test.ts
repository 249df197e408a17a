/**
 * The small shared helpers, case by case with exact values: printable diagnostics (clipping at
 * the bound, never splitting a surrogate pair), UTF-16 well-formedness, the hex/UUID shapes,
 * NIP-10 marked anchors as buzz-acp's `thread_anchors` reads them, redacted pointers, RFC 6901
 * pointers and the error type.
 */
import { describe, expect, test } from 'vitest';
import { BuzzMetaError, asBuzzError, pointer } from '../../src/errors.js';
import { HEX128_PATTERN, HEX64_PATTERN, UUID_PATTERN, isHex64 } from '../../src/shared/hex.js';
import { markedAnchors } from '../../src/shared/nip10.js';
import { safePointer } from '../../src/shared/redact.js';
import { DRAFT_KEY_NAMES } from '../../src/draft/schema.js';
import { ENVELOPE_KEY_NAMES } from '../../src/envelope/schema.js';
import { isWellFormedUtf16, printable } from '../../src/shared/utf16.js';

const ID = 'ab'.repeat(32);
const OTHER = 'cd'.repeat(32);

describe('printable', () => {
  test('keeps a text of exactly max units as it is, and clips one unit more', () => {
    expect(printable('abc', 3)).toBe('abc');
    expect(printable('abcd', 3)).toBe('abc…');
    expect(printable('', 0)).toBe('');
  });

  test('steps back off a high surrogate at the cut, never off a low one or a plain character', () => {
    expect(printable('ab😀c', 3)).toBe('ab…'); // U+D83D at index 2: the pair is dropped whole
    expect(printable('a😀bc', 3)).toBe('a😀…'); // the pair ends at the cut
    expect(printable(`ab\uDBFFx`, 3)).toBe('ab…'); // the last high surrogate
    expect(printable(`ab\uD800x`, 3)).toBe('ab…'); // the first high surrogate
    expect(printable(`ab\uDC00x`, 3)).toBe('ab\uFFFD…'); // a lone low surrogate is kept (and replaced)
    expect(printable(`ab\uD7FFx`, 3)).toBe('ab\uD7FF…'); // just below the surrogates
  });

  test('replaces control, format, separator characters and lone surrogates with U+FFFD, every one', () => {
    expect(printable('a\u0000b\u001bc\u200bd\u2028e\u2029f\uD800g\u007f', 64)).toBe(
      'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg\uFFFD',
    );
    expect(printable('é 😀 ok', 64)).toBe('é 😀 ok');
  });
});

describe('isWellFormedUtf16', () => {
  test('a paired surrogate is well formed, a lone one anywhere is not', () => {
    expect(isWellFormedUtf16('a😀b')).toBe(true);
    expect(isWellFormedUtf16('')).toBe(true);
    expect(isWellFormedUtf16('\uD83D')).toBe(false);
    expect(isWellFormedUtf16('x\uDE00')).toBe(false);
    expect(isWellFormedUtf16('\uDE00\uD83D')).toBe(false);
  });
});

describe('hex and UUID shapes', () => {
  test('isHex64: exactly 64 lowercase hex digits, strings only', () => {
    expect(isHex64(ID)).toBe(true);
    expect(isHex64(ID.toUpperCase())).toBe(false);
    expect(isHex64(`${ID}a`)).toBe(false);
    expect(isHex64(ID.slice(1))).toBe(false);
    expect(isHex64(`${ID.slice(1)}g`)).toBe(false);
    expect(isHex64(`${ID}\n`)).toBe(false);
    expect(isHex64(123)).toBe(false);
    expect(isHex64({ length: 64 })).toBe(false);
    // A non-string whose text would match is still refused (RegExp.test would coerce it).
    expect(isHex64({ length: 64, toString: () => ID })).toBe(false);
  });

  test('the patterns are anchored at both ends', () => {
    expect(HEX64_PATTERN.test(`x${ID}`)).toBe(false);
    expect(HEX64_PATTERN.test(`${ID}x`)).toBe(false);
    expect(HEX128_PATTERN.test(ID + OTHER)).toBe(true);
    expect(HEX128_PATTERN.test(`${ID + OTHER}0`)).toBe(false);
    expect(HEX128_PATTERN.test(`0${ID}${OTHER}`)).toBe(false);
    const uuid = '7f3a2b10-1234-4abc-8def-0123456789ab';
    expect(UUID_PATTERN.test(uuid)).toBe(true);
    expect(UUID_PATTERN.test(`${uuid}0`)).toBe(false);
    expect(UUID_PATTERN.test(`0${uuid}`)).toBe(false);
    expect(UUID_PATTERN.test(uuid.toUpperCase())).toBe(false);
  });
});

describe('markedAnchors', () => {
  test('the last root and the last reply win, lowercased; other markers and tags route nothing', () => {
    expect(
      markedAnchors([
        ['p', OTHER],
        ['e', ID, '', 'root'],
        ['e', OTHER.toUpperCase(), 'wss://relay', 'root'],
        ['e', ID, '', 'reply'],
        ['e', OTHER, '', 'mention'],
        ['e', ID, '', ''],
      ]),
    ).toEqual({ ok: true, value: { root: OTHER, parent: ID } });
    expect(markedAnchors([])).toEqual({ ok: true, value: { root: undefined, parent: undefined } });
    expect(markedAnchors([['e', ID.toUpperCase(), '', 'reply']])).toEqual({
      ok: true,
      value: { root: undefined, parent: ID },
    });
  });

  test('an e tag with fewer than 4 values is refused, with its index', () => {
    expect(
      markedAnchors([
        ['t', 'x'],
        ['e', ID, ''],
      ]),
    ).toEqual({
      ok: false,
      error: {
        tagIndex: 1,
        message:
          'an e tag without a NIP-10 marker (fewer than 4 values) makes the thread anchor ambiguous; buzz-acp refuses the event',
      },
    });
    expect(markedAnchors([['e', ID, '', 'root', 'extra']])).toEqual({
      ok: true,
      value: { root: ID, parent: undefined },
    });
  });

  test('an e tag whose id is not 64 hex digits is refused, with its index', () => {
    // A non-string id (an in-process caller) is refused, never coerced by the pattern test.
    const objectId = { toString: () => ID } as unknown as string;
    expect(markedAnchors([['e', objectId, '', 'root']])).toMatchObject({ ok: false, error: { tagIndex: 0 } });
    const refused = (id: string) =>
      markedAnchors([
        ['e', ID, '', 'root'],
        ['e', id, '', 'reply'],
      ]);
    for (const id of [ID.slice(1), `${ID}0`, `x${ID.slice(1)}`, `${ID.slice(1)}x`, `${ID.slice(1)}\n`]) {
      expect(refused(id)).toEqual({
        ok: false,
        error: { tagIndex: 1, message: 'an e tag’s event id is not 64 hex digits; buzz-acp refuses the event' },
      });
    }
  });
});

describe('redacted pointers', () => {
  test("indices and the keys of the caller's dialect are written out; any other key is *", () => {
    expect(safePointer([3], ENVELOPE_KEY_NAMES)).toBe('/3');
    expect(safePointer(['events'], ENVELOPE_KEY_NAMES)).toBe('/events');
    expect(safePointer(['evil/key'], ENVELOPE_KEY_NAMES)).toBe('/*');
    expect(safePointer(['_meta', 'buzz', 'channel', 'members', 0, 'pubkey'], ENVELOPE_KEY_NAMES)).toBe(
      '/_meta/buzz/channel/members/0/pubkey',
    );
    expect(safePointer(['_meta', 'buzz', 'channelId', 'cancelledEvents', 'sender'], DRAFT_KEY_NAMES)).toBe(
      '/_meta/buzz/channelId/cancelledEvents/sender',
    );
    expect(safePointer(['_meta', 'buzz', 'x~y/z', 1], ENVELOPE_KEY_NAMES)).toBe('/_meta/buzz/*/1');
  });

  test('a key only the other dialect defines is *, and the namespace path is kept with no keys at all', () => {
    expect(safePointer(['_meta', 'buzz', 'channelId', 'sender'], ENVELOPE_KEY_NAMES)).toBe('/_meta/buzz/*/*');
    expect(safePointer(['_meta', 'buzz', 'attestation', 'signature'], DRAFT_KEY_NAMES)).toBe('/_meta/buzz/*/*');
    expect(safePointer(['_meta', 'buzz', 'events', 0], new Set())).toBe('/_meta/buzz/*/0');
  });
});

describe('errors', () => {
  test('pointer escapes ~ and / as RFC 6901 asks, in that order', () => {
    expect(pointer([])).toBe('');
    expect(pointer(['a/b', '~1', 0])).toBe('/a~1b/~01/0');
  });

  test('a BuzzMetaError names its path in the message unless the path is empty', () => {
    const rooted = BuzzMetaError.of('invalid_params', '', 'params must be an object');
    expect([rooted.name, rooted.code, rooted.path, rooted.message]).toEqual([
      'BuzzMetaError',
      'invalid_params',
      '',
      'params must be an object',
    ]);
    const first = { code: 'limit_exceeded', path: '/a', message: 'too long' } as const;
    const second = { code: 'invalid_draft', path: '/b', message: 'wrong' } as const;
    const error = new BuzzMetaError(first, second);
    expect([error.code, error.path, error.message, error.issues]).toEqual([
      'limit_exceeded',
      '/a',
      '/a: too long',
      [first, second],
    ]);
  });

  test("reason is the deciding finding's sentence, without the path the message starts with", () => {
    const error = new BuzzMetaError(
      { code: 'limit_exceeded', path: '/a', message: 'too long' },
      { code: 'invalid_draft', path: '/b', message: 'wrong' },
    );
    expect([error.message, error.reason]).toEqual(['/a: too long', 'too long']);
    expect(BuzzMetaError.of('invalid_params', '', 'params must be an object').reason).toBe('params must be an object');
  });

  test('asBuzzError keeps ours and turns anything else, hostile included, into internal', () => {
    const ours = BuzzMetaError.of('no_sender', '/events', 'none');
    expect(asBuzzError(ours)).toBe(ours);
    const hostile = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('trap');
        },
      },
    );
    for (const thrown of [new Error('x'), 'text', undefined, hostile]) {
      const error = asBuzzError(thrown);
      expect([error.code, error.path, error.message]).toEqual([
        'internal',
        '',
        'an unexpected exception was thrown while reading the request',
      ]);
    }
  });
});
