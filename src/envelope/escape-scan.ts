/**
 * Whether a string would be escaped by `JSON.stringify`, decided fast for long strings.
 *
 * Canonical JSON writes a string that needs no escaping around itself (no copy), so every string
 * of a delivery is checked once before it is hashed. A regular expression is slower than the
 * SHA-256 that follows and than the `JSON.parse` that made the string, so on a large forged
 * delivery it would be a large part of the read. Long strings are instead encoded to UTF-8 with
 * `TextEncoder.encodeInto` (native) into a small WebAssembly memory and scanned 16 bytes at a time
 * with wasm SIMD (docs/performance.md, "Designs"). In UTF-8 no byte of a multi-byte character is below 0x80, so a
 * byte scan for `"`, `\` and 0x00–0x1F finds exactly the characters JSON.stringify escapes besides
 * lone surrogates, which `String.prototype.isWellFormed` finds.
 *
 * Where WebAssembly is unavailable (`node --jitless`) or cannot compile, the regular expression
 * decides every string: the same answers, only slower.
 */

/**
 * A string holding a character JSON.stringify escapes (`"`, `\\`, U+0000–U+001F) or any surrogate
 * (a lone one is escaped; pairs are simply left to JSON.stringify). Linear: one character class.
 */
// eslint-disable-next-line no-control-regex -- these are the control characters JSON.stringify escapes
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Strings at least this long are scanned as UTF-8 in WebAssembly; shorter ones by the expression. */
export const SCANNED_FROM = 1024;

/** UTF-16 units encoded per chunk: their UTF-8 (at most 3 bytes a unit) and the padding fit in 4 pages. */
const CHUNK_UNITS = 65_536;

/** Padding written after a chunk so the 16-byte loop may read past its end: `A`, never escaped. */
const PAD = 0x41;

/**
 * The module, assembled by hand (162 bytes): memory of 4 pages (256 KiB), exported as `memory`, and
 * `scan(end: i32): i32`, which returns 1 when a byte in `[0, end)` — read 16 at a time, so up to 15
 * bytes past `end` — is below 0x20, `"` (0x22) or `\` (0x5C), else 0. Its text form:
 *
 * ```wat
 * (func (export "scan") (param $end i32) (result i32) (local $i i32) (local $v v128)
 *   (block $done (loop $next
 *     (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
 *     (local.set $v (v128.load (local.get $i)))
 *     (if (v128.any_true (v128.or (v128.or
 *           (i8x16.lt_u (local.get $v) (v128.const i8x16 0x20 …))
 *           (i8x16.eq (local.get $v) (v128.const i8x16 0x22 …)))
 *           (i8x16.eq (local.get $v) (v128.const i8x16 0x5c …))))
 *       (then (return (i32.const 1))))
 *     (local.set $i (i32.add (local.get $i) (i32.const 16)))
 *     (br $next)))
 *   (i32.const 0))
 * ```
 */
const MODULE_BASE64 =
  'AGFzbQEAAAABBgFgAX8BfwMCAQAFAwEABAcRAgZtZW1vcnkCAARzY2FuAAAKdAFyAgF/AXsCQANAIAEgAE8NASAB/QAAACIC/QwgICAgICAgICAgICAgICAg/SYgAv0MIiIiIiIiIiIiIiIiIiIiIv0j/VAgAv0MXFxcXFxcXFxcXFxcXFxcXP0j/VD9UwRAQQEPCyABQRBqIQEMAAsLQQAL';

interface Scanner {
  readonly bytes: Uint8Array;
  readonly scan: (end: number) => number;
}

/** The instantiated scanner, `false` when WebAssembly is unavailable, `undefined` until first use. */
let scanner: Scanner | false | undefined;

/** The part of the WebAssembly API used here (the ES2022 lib has no WebAssembly types). */
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => {
    readonly exports: { readonly memory: { readonly buffer: ArrayBuffer }; readonly scan: (end: number) => number };
  };
}

function loadScanner(): Scanner | false {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (wasm === undefined) return false;
  try {
    const { exports } = new wasm.Instance(new wasm.Module(Buffer.from(MODULE_BASE64, 'base64')));
    // The memory never grows, so this view stays valid.
    return { bytes: new Uint8Array(exports.memory.buffer), scan: exports.scan };
  } catch {
    return false;
  }
}

const encoder = new TextEncoder();

/** `isWellFormed` (ES2024, in every Node the package supports), typed here for the ES2022 lib. */
type WellFormed = string & { isWellFormed(): boolean };

/**
 * True when `JSON.stringify(text)` may differ from `"` + text + `"`: the string holds `"`, `\`, a
 * control character U+0000–U+001F or a surrogate (short strings: any surrogate; long ones: only a
 * lone one, the only kind JSON.stringify escapes). False means it certainly does not.
 */
export function mayNeedJsonEscaping(text: string): boolean {
  if (text.length < SCANNED_FROM) return NEEDS_ESCAPING.test(text);
  const wasm = (scanner ??= loadScanner());
  if (wasm === false) return NEEDS_ESCAPING.test(text);
  if (!(text as WellFormed).isWellFormed()) return true;
  for (let at = 0; at < text.length; at += CHUNK_UNITS) {
    // A whole string is its own substring (V8 returns it as is), so no shortcut for a short one.
    const chunk = text.substring(at, at + CHUNK_UNITS);
    const { written } = encoder.encodeInto(chunk, wasm.bytes);
    wasm.bytes.fill(PAD, written, written + 16);
    if (wasm.scan(written) !== 0) return true;
  }
  return false;
}
