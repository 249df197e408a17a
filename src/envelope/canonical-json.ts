/**
 * Buzz canonical JSON: the integer-only subset of RFC 8785 (JCS) that buzz-acp hashes and signs.
 * `null`, booleans, safe integers, strings escaped exactly as `JSON.stringify` escapes them,
 * arrays in order, object keys sorted by UTF-16 code units, no whitespace.
 *
 * It canonicalizes the object as received, own keys included (an own `"__proto__"` key too), so
 * a signature covers every key the host sent, not just the ones a schema knows.
 */
import { BuzzMetaError } from '../errors.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { safePointer } from '../redact.js';

/** Default nesting bound; the reader passes its own `maxDepth`. */
const DEFAULT_MAX_DEPTH = 64;

/** How far one canonicalization may go, and which sub-objects' texts to keep or reuse. */
export interface CanonicalOptions {
  /** Nesting bound (containers, the outermost included). */
  readonly maxDepth: number;
  /** Values visited, each visit counted: bounds the work on a graph that shares sub-objects. */
  readonly maxNodes: number;
  /**
   * Canonical texts of sub-objects by identity: a value found here is written as its text without
   * being walked again; a value listed with `undefined` gets its text stored once written.
   */
  readonly texts?: Map<object, string | undefined>;
}

/**
 * Serializes a JSON value canonically.
 *
 * @example
 * ```ts
 * canonicalJson({ b: [1, 'é'], a: null }) // '{"a":null,"b":[1,"é"]}'
 * ```
 * @throws BuzzMetaError `canonical_json` for a non-integer or unsafe number or a value JSON cannot
 *   carry (undefined, function, bigint, symbol); `limit_exceeded` for nesting deeper than `maxDepth`
 *   (cycles included) or more than `maxNodes` values visited. Paths name only keys the Buzz
 *   contract defines (others are written `*`), and messages never repeat a key or a value.
 */
export function canonicalJson(
  value: unknown,
  maxDepth: number = DEFAULT_MAX_DEPTH,
  maxNodes: number = DEFAULT_LIMITS.maxNodes,
): string {
  return canonicalize(value, { maxDepth, maxNodes });
}

/** {@link canonicalJson} with the full options (internal: the verifier reuses sub-object texts). */
export function canonicalize(value: unknown, options: CanonicalOptions): string {
  const state: WriteState = { nodesLeft: options.maxNodes, path: [], texts: options.texts };
  return encode(value, options.maxDepth, state) ?? JSON.stringify(value);
}

interface WriteState {
  nodesLeft: number;
  readonly path: (string | number)[];
  readonly texts: Map<object, string | undefined> | undefined;
}

/**
 * The canonical text of `value`, or `undefined` when `JSON.stringify(value)` already is that text:
 * a scalar, an array of such values, or a plain object whose keys are already in canonical order
 * and whose values are such values. Most of a large envelope (tag arrays, scalar fields, already
 * sorted objects) is then written by native code in one go, and each value is still checked once.
 */
function encode(value: unknown, depthLeft: number, state: WriteState): string | undefined {
  spend(state, 1);
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      if (!Number.isSafeInteger(value)) {
        throw fail(state.path, 'numbers must be safe integers (canonical JSON has no fractions or exponents)');
      }
      // JSON.stringify(-0) is "0", as upstream (serde_json) reads "-0".
      return undefined;
    case 'object':
      break;
    default:
      throw fail(state.path, `a ${typeof value} cannot be represented in JSON`);
  }
  if (value === null) return undefined;
  const known = state.texts?.get(value);
  if (known !== undefined) return known;
  if (depthLeft <= 0) {
    throw BuzzMetaError.of(
      'limit_exceeded',
      safePointer(state.path),
      'value is nested more deeply than maxDepth allows',
    );
  }
  const text = Array.isArray(value) ? encodeArray(value, depthLeft, state) : encodeObject(value, depthLeft, state);
  if (state.texts?.has(value) === true) state.texts.set(value, text ?? JSON.stringify(value));
  return text;
}

function encodeArray(items: readonly unknown[], depthLeft: number, state: WriteState): string | undefined {
  let parts: string[] | undefined;
  for (let i = 0; i < items.length; i++) {
    state.path.push(i);
    const text = encode(items[i], depthLeft - 1, state);
    state.path.pop();
    if (text !== undefined && parts === undefined) parts = items.slice(0, i).map((item) => JSON.stringify(item));
    parts?.push(text ?? JSON.stringify(items[i]));
  }
  return parts === undefined ? undefined : '[' + parts.join(',') + ']';
}

function encodeObject(record: object, depthLeft: number, state: WriteState): string | undefined {
  const keys = Object.keys(record);
  const proto: unknown = Object.getPrototypeOf(record);
  // JSON.stringify would call a prototype's toJSON, so only a plain object can be left to it.
  let asIs = (proto === Object.prototype || proto === null) && isSorted(keys);
  // Default sort compares UTF-16 code units, which is what RFC 8785 §3.2.3 asks for.
  if (!asIs) keys.sort();
  const values = keys.map((key) => (record as Readonly<Record<string, unknown>>)[key]);
  const texts = keys.map((key, i) => {
    state.path.push(key);
    const text = encode(values[i], depthLeft - 1, state);
    state.path.pop();
    if (text !== undefined) asIs = false;
    return text;
  });
  if (asIs) return undefined;
  const members = keys.map((key, i) => JSON.stringify(key) + ':' + (texts[i] ?? JSON.stringify(values[i])));
  return '{' + members.join(',') + '}';
}

function isSorted(keys: readonly string[]): boolean {
  let previous = '';
  for (const key of keys) {
    if (key < previous) return false;
    previous = key;
  }
  return true;
}

function spend(state: WriteState, count: number): void {
  state.nodesLeft -= count;
  if (state.nodesLeft < 0) {
    throw BuzzMetaError.of(
      'limit_exceeded',
      '',
      'the value holds more than maxNodes values (shared sub-objects count each time)',
    );
  }
}

function fail(path: readonly (string | number)[], message: string): BuzzMetaError {
  return BuzzMetaError.of('canonical_json', safePointer(path), message);
}
