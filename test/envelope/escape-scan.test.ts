import fc from 'fast-check';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { SCANNED_FROM, mayNeedJsonEscaping } from '../../src/envelope/escape-scan.js';
import { canonicalJson } from '../../src/envelope/canonical-json.js';
import { nostrEventId, sha256Hex } from '../../src/envelope/crypto.js';

const RUNS = Number(process.env.FAST_CHECK_RUNS ?? 200);

/** What JSON.stringify says: the string is written other than between two quotes. */
const escaped = (text: string): boolean => JSON.stringify(text) !== `"${text}"`;

/** Every character JSON.stringify escapes, besides lone surrogates. */
const ESCAPED_CHARACTERS = ['"', '\\', ...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code))];

type Check = (text: string) => boolean;

/**
 * `mayNeedJsonEscaping` of a fresh copy of the module whose first long string is checked while
 * `WebAssembly` is `replacement`: the module then keeps the expression for every string.
 */
async function withWebAssembly(replacement: unknown): Promise<Check> {
  const real = Object.getOwnPropertyDescriptor(globalThis, 'WebAssembly');
  vi.resetModules();
  const fresh = await import('../../src/envelope/escape-scan.js');
  Object.defineProperty(globalThis, 'WebAssembly', { value: replacement, configurable: true, writable: true });
  try {
    fresh.mayNeedJsonEscaping('a'.repeat(SCANNED_FROM));
  } finally {
    if (real !== undefined) Object.defineProperty(globalThis, 'WebAssembly', real);
  }
  return fresh.mayNeedJsonEscaping;
}

describe.each([
  ['WebAssembly scan', undefined],
  ['expression only (no WebAssembly)', false],
] as const)('mayNeedJsonEscaping, %s', (_name, scanner) => {
  let check: Check = mayNeedJsonEscaping;
  beforeAll(async () => {
    check = scanner === false ? await withWebAssembly(undefined) : mayNeedJsonEscaping;
  });

  test('long strings: each escaped character at the start, the end and around the 64 Ki chunk bounds', () => {
    const positions = [0, SCANNED_FROM - 1, 65_535, 65_536, 65_537, 131_072, 200_000 - 1];
    for (const character of ESCAPED_CHARACTERS) {
      for (const at of positions) {
        const text = 'a'.repeat(at) + character + 'b'.repeat(200_000 - at - 1);
        expect(check(text), `U+${character.charCodeAt(0).toString(16)} at ${String(at)}`).toBe(true);
      }
    }
  });

  test('long strings without escapes: plain, Latin-1, multi-byte and astral text, DEL', () => {
    for (const unit of ['x', 'é', '\u007f', 'ÿ', '€', '😀', ' ~']) {
      const text = unit.repeat(Math.ceil(150_000 / unit.length));
      // The expression flags any surrogate, pairs included (JSON.stringify then writes them as they are).
      expect(check(text)).toBe(scanner === false && unit === '😀');
      expect(escaped(text)).toBe(false);
    }
  });

  test('a surrogate pair split by a chunk bound is not a lone surrogate', () => {
    for (const before of [65_535, 65_534, 131_071]) {
      const text = 'a'.repeat(before) + '😀'.repeat(40_000);
      expect(escaped(text)).toBe(false);
      expect(check(text)).toBe(scanner === false);
    }
  });

  test('lone surrogates in a long string are escaped', () => {
    for (const lone of ['\ud800', '\udfff', '\udc00']) {
      for (const at of [0, 70_000, 149_999]) {
        const text = 'a'.repeat(at) + lone + 'a'.repeat(150_000 - at - 1);
        expect(check(text)).toBe(true);
      }
    }
  });

  test('property: never false where JSON.stringify escapes (short and long strings)', () => {
    const long = fc
      .tuple(fc.string({ unit: 'binary', maxLength: 40 }), fc.integer({ min: SCANNED_FROM, max: 140_000 }))
      .map(([tail, length]) => 'q'.repeat(length) + tail);
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), long), (text) => {
        if (escaped(text)) expect(check(text)).toBe(true);
        if (!check(text)) expect(JSON.stringify(text)).toBe(`"${text}"`);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('canonical text of long strings is JSON.stringify’s', () => {
  test('content and tag values with and without escapes, in arrays of scalars and as members', () => {
    const long = 'z'.repeat(SCANNED_FROM);
    const values = [long, long + '\n', '"' + long, long + '\ud800', 'é'.repeat(70_000), '😀'.repeat(40_000)];
    for (const value of values) {
      expect(canonicalJson({ content: value })).toBe(JSON.stringify({ content: value }));
      const tags = [
        ['t', value, 'short', 7],
        ['h', 'x'],
      ];
      expect(canonicalJson(tags)).toBe(JSON.stringify(tags));
    }
  });

  test('the NIP-01 serialization writes long tags and content as JSON.stringify does', () => {
    const event = {
      pubkey: 'a'.repeat(64),
      created_at: 1,
      kind: 9,
      tags: [
        ['h', 'c'],
        ['t', 'x'.repeat(5000) + '\u0001'],
        ['t', 'y'.repeat(5000)],
      ],
      content: 'line\n'.repeat(500),
    };
    expect(nostrEventId(event)).toBe(
      sha256Hex(JSON.stringify([0, event.pubkey, event.created_at, event.kind, event.tags, event.content])),
    );
  });
});

describe('mayNeedJsonEscaping, where the two paths meet and what the scanner leaves behind', () => {
  /** A string of `length` units made of surrogate pairs after an `a`: never escaped, flagged only by the expression. */
  const pairs = (length: number): string => 'a'.repeat(length % 2) + '😀'.repeat(Math.floor(length / 2));

  test('SCANNED_FROM is the first length scanned in WebAssembly: below it the expression decides', () => {
    expect(SCANNED_FROM).toBe(1024);
    expect(pairs(SCANNED_FROM - 1)).toHaveLength(1023);
    expect(mayNeedJsonEscaping(pairs(SCANNED_FROM - 1))).toBe(true);
    expect(pairs(SCANNED_FROM)).toHaveLength(1024);
    expect(mayNeedJsonEscaping(pairs(SCANNED_FROM))).toBe(false);
  });

  test('bytes of a longer string scanned before never count: the padding covers what the last load reads', () => {
    for (const escape of ['"', '\\', '\n']) {
      for (const length of [2000, 2001, 2015, 70_000]) {
        expect(mayNeedJsonEscaping('a'.repeat(length) + escape.repeat(16))).toBe(true);
        expect(mayNeedJsonEscaping('a'.repeat(length)), `${JSON.stringify(escape)} after ${String(length)}`).toBe(
          false,
        );
      }
    }
  });

  test('strings whose UTF-8 outgrows the scanner memory (256 KiB) are scanned chunk by chunk to the end', () => {
    for (const unit of ['a', 'é', '€']) {
      const text = unit.repeat(300_000);
      expect(mayNeedJsonEscaping(text)).toBe(false);
      expect(mayNeedJsonEscaping(text + '"')).toBe(true);
      expect(mayNeedJsonEscaping(text + '\u001f' + text)).toBe(true);
    }
  });

  test('a fresh module compiles its scanner where WebAssembly works: long surrogate pairs pass unflagged', async () => {
    // The scanner is loaded once per module, on the first long string: a fresh copy loads it again.
    const check = await withWebAssembly((globalThis as { WebAssembly?: unknown }).WebAssembly);
    expect(check(pairs(4096))).toBe(false);
    expect(check('a'.repeat(4095) + '"')).toBe(true);
  });

  describe('without a working WebAssembly the expression decides every string', () => {
    test.each([
      ['absent', undefined],
      [
        'refusing to compile',
        {
          Module: function refuse(): never {
            throw new Error('no wasm here');
          },
          Instance: Object,
        },
      ],
    ])('WebAssembly %s', async (_name, replacement) => {
      const check = await withWebAssembly(replacement);
      expect(check(pairs(4096))).toBe(true);
      expect(check('a'.repeat(4096))).toBe(false);
      expect(check('a'.repeat(4095) + '"')).toBe(true);
    });
  });
});
