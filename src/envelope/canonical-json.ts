/**
 * Buzz canonical JSON: the integer-only subset of RFC 8785 (JCS) that buzz-acp hashes and signs.
 * `null`, booleans, safe integers, strings escaped exactly as `JSON.stringify` escapes them,
 * arrays in order, object keys sorted by UTF-16 code units, no whitespace.
 *
 * It canonicalizes the object as received, own keys included (an own `"__proto__"` key too), so
 * a signature covers every key the host sent, not just the ones a schema knows.
 */
import { BuzzMetaError, pointer } from '../errors.js';

/** Default nesting bound; the reader passes its own `maxDepth`. */
const DEFAULT_MAX_DEPTH = 64;

/**
 * Serializes a JSON value canonically.
 *
 * @example
 * ```ts
 * canonicalJson({ b: [1, 'é'], a: null }) // '{"a":null,"b":[1,"é"]}'
 * ```
 * @throws BuzzMetaError `canonical_json` for a non-integer or unsafe number or a value JSON cannot
 *   carry (undefined, function, bigint, symbol); `limit_exceeded` for nesting deeper than `maxDepth`
 *   (cycles included).
 */
export function canonicalJson(value: unknown, maxDepth: number = DEFAULT_MAX_DEPTH): string {
  const path: (string | number)[] = [];
  return write(value, maxDepth, path);
}

function write(value: unknown, depthLeft: number, path: (string | number)[]): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(value)) {
        throw fail(path, 'numbers must be safe integers (canonical JSON has no fractions or exponents)');
      }
      // String(-0) is "0", as JSON.stringify prints it.
      return String(value);
    case 'object':
      break;
    default:
      throw fail(path, `a ${typeof value} cannot be represented in JSON`);
  }
  if (value === null) return 'null';
  if (depthLeft <= 0) {
    throw BuzzMetaError.of('limit_exceeded', pointer(path), 'value is nested more deeply than maxDepth allows');
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      path.push(i);
      out += write((value as readonly unknown[])[i], depthLeft - 1, path);
      path.pop();
    }
    return out + ']';
  }
  const record = value as Readonly<Record<string, unknown>>;
  // Default sort compares UTF-16 code units, which is what RFC 8785 §3.2.3 asks for.
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) {
    if (out.length > 1) out += ',';
    path.push(key);
    out += JSON.stringify(key) + ':' + write(record[key], depthLeft - 1, path);
    path.pop();
  }
  return out + '}';
}

function fail(path: readonly (string | number)[], message: string): BuzzMetaError {
  return BuzzMetaError.of('canonical_json', pointer(path), message);
}
