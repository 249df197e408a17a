/**
 * Buzz canonical JSON: the integer-only subset of RFC 8785 (JCS) that buzz-acp hashes and signs.
 * `null`, booleans, safe integers, strings escaped exactly as `JSON.stringify` escapes them,
 * arrays in order, object keys sorted by UTF-16 code units, no whitespace.
 *
 * It canonicalizes the object as received, own keys included (an own `"__proto__"` key too), so
 * a signature covers every key the host sent, not just the ones a schema knows.
 *
 * The text is produced as a tree of pieces ({@link Pieces}) that, joined in order, are the
 * canonical text. The verifier hashes the pieces one after another instead of joining them, so a
 * large delivery is neither copied level by level nor flattened before hashing, a sub-object's text
 * is reused by reference, and each string is scanned or escaped once.
 */
import { BuzzMetaError } from '../errors.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { safePointer } from '../redact.js';

/** Default nesting bound; the reader passes its own `maxDepth`. */
const DEFAULT_MAX_DEPTH = 64;

/** Canonical text as a list of strings and nested lists: the text is their concatenation, in order. */
export type Pieces = readonly (string | Pieces)[];

/** The text of one string member of an object, as written, and the string it was written from. */
export interface MemberText {
  /** The string read from the object. */
  readonly value: string;
  /** Its canonical text, as pieces. */
  readonly pieces: Pieces;
}

/** How far one canonicalization may go, and which sub-objects' texts to keep or reuse. */
export interface CanonicalOptions {
  /** Nesting bound (containers, the outermost included). */
  readonly maxDepth: number;
  /** Values visited, each visit counted: bounds the work on a graph that shares sub-objects. */
  readonly maxNodes: number;
  /**
   * Canonical texts of sub-objects by identity: a value found here is written from its pieces
   * without being walked again; a value listed with `undefined` gets its pieces stored once written.
   */
  readonly texts?: Map<object, Pieces | undefined>;
  /**
   * Objects whose string members are recorded by key as they are written (the verifier
   * reuses an event's escaped content for its NIP-01 id instead of escaping it a second time).
   */
  readonly members?: ReadonlyMap<object, Map<string, MemberText>>;
  /**
   * Key lists already taken with `Object.keys` (by the input-bounds walk, for objects with many
   * keys): used instead of listing them again, and sorted in place.
   */
  readonly keyLists?: ReadonlyMap<object, string[]>;
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
  return joinPieces(canonicalPieces(value, { maxDepth, maxNodes }));
}

/** The text of {@link Pieces}: their concatenation. */
export function joinPieces(pieces: Pieces): string {
  return pieces.map((piece) => (typeof piece === 'string' ? piece : joinPieces(piece))).join('');
}

/**
 * {@link canonicalJson} with the full options, as pieces whose concatenation is the canonical text
 * (internal: the verifier hashes the pieces and reuses sub-objects' texts).
 */
export function canonicalPieces(value: unknown, options: CanonicalOptions): Pieces {
  const state: WriteState = {
    nodesLeft: options.maxNodes,
    path: [],
    texts: options.texts,
    members: options.members,
    keyLists: options.keyLists,
  };
  const out: Piece[] = [];
  if (write(value, options.maxDepth, state, out)) pushText(out, value);
  return out;
}

/**
 * A string holding a character JSON.stringify escapes (`"`, `\\`, U+0000–U+001F) or any surrogate
 * (a lone one is escaped; pairs are simply left to JSON.stringify). Linear: one character class.
 */
// eslint-disable-next-line no-control-regex -- these are the control characters JSON.stringify escapes
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * Appends `JSON.stringify(value)` for a scalar, an array of such values or a plain, sorted object.
 * A string that needs no escaping is written as three pieces around the string itself: no copy of a
 * large text is made, and the scan that decides it costs about half of JSON.stringify's.
 */
function pushText(out: Piece[], value: unknown): void {
  if (typeof value === 'string' && !NEEDS_ESCAPING.test(value)) out.push('"', value, '"');
  else out.push(JSON.stringify(value));
}

/** One entry of a piece list being written. */
type Piece = string | Pieces;

interface WriteState {
  nodesLeft: number;
  readonly path: (string | number)[];
  readonly texts: Map<object, Pieces | undefined> | undefined;
  readonly members: ReadonlyMap<object, Map<string, MemberText>> | undefined;
  readonly keyLists: ReadonlyMap<object, string[]> | undefined;
}

/**
 * Checks `value` and appends its canonical text to `out`, or returns `true` and appends nothing
 * when `JSON.stringify(value)` already is that text: a scalar, an array of such values, or a plain
 * object whose keys are already in canonical order and whose values are such values. Most of a
 * large envelope (tag arrays, scalar fields, already sorted objects) is then written by native code
 * in one go, and each value is still checked once.
 */
function write(value: unknown, depthLeft: number, state: WriteState, out: Piece[]): boolean {
  spend(state);
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      if (!Number.isSafeInteger(value)) {
        throw fail(state.path, 'numbers must be safe integers (canonical JSON has no fractions or exponents)');
      }
      // JSON.stringify(-0) is "0", as upstream (serde_json) reads "-0".
      return true;
    case 'object':
      break;
    default:
      throw fail(state.path, `a ${typeof value} cannot be represented in JSON`);
  }
  if (value === null) return true;
  const known = state.texts?.get(value);
  if (known !== undefined) {
    out.push(known);
    return false;
  }
  if (depthLeft <= 0) {
    throw BuzzMetaError.of(
      'limit_exceeded',
      safePointer(state.path),
      'value is nested more deeply than maxDepth allows',
    );
  }
  if (state.texts?.has(value) !== true) return writeContainer(value, depthLeft, state, out);
  const pieces: Piece[] = [];
  if (writeContainer(value, depthLeft, state, pieces)) pushText(pieces, value);
  state.texts.set(value, pieces);
  out.push(pieces);
  return false;
}

function writeContainer(value: object, depthLeft: number, state: WriteState, out: Piece[]): boolean {
  return Array.isArray(value) ? writeArray(value, depthLeft, state, out) : writeObject(value, depthLeft, state, out);
}

/**
 * JSON.stringify calls any `toJSON` it finds on an object (own or inherited, a polluted
 * `Object.prototype` included), so only a container without one can be left to it.
 */
function hasToJson(value: object): boolean {
  return 'toJSON' in value;
}

function writeArray(items: readonly unknown[], depthLeft: number, state: WriteState, out: Piece[]): boolean {
  const mark = out.length;
  let started = hasToJson(items);
  if (started) out.push('[');
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (started && i > 0) out.push(',');
    state.path.push(i);
    const native = write(item, depthLeft - 1, state, out);
    state.path.pop();
    if (started) {
      if (native) pushText(out, item);
    } else if (!native) {
      // The first item that is not native: '[' and the items before it go ahead of its pieces.
      insertAt(out, mark, [JSON.stringify(items.slice(0, i)).slice(0, -1) + (i === 0 ? '' : ',')]);
      started = true;
    }
  }
  if (!started) return true;
  out.push(']');
  return false;
}

function writeObject(record: object, depthLeft: number, state: WriteState, out: Piece[]): boolean {
  const keys = state.keyLists?.get(record) ?? Object.keys(record);
  const members = state.members?.get(record);
  const proto: unknown = Object.getPrototypeOf(record);
  const mark = out.length;
  let started =
    members !== undefined || (proto !== Object.prototype && proto !== null) || hasToJson(record) || !isSorted(keys);
  // Default sort compares UTF-16 code units, which is what RFC 8785 §3.2.3 asks for.
  if (started) keys.sort();
  if (started) out.push('{');
  // The members so far, while the object may still be left whole to JSON.stringify.
  const before: [string, unknown][] = [];
  keys.forEach((key, i) => {
    const value: unknown = (record as Readonly<Record<string, unknown>>)[key];
    if (started) out.push(label(key, i));
    state.path.push(key);
    const native = write(value, depthLeft - 1, state, out);
    state.path.pop();
    if (started) {
      if (native) writeMember(out, key, value, members);
    } else if (native) {
      before.push([key, value]);
    } else {
      // The first member that is not native: '{' and the members before it go ahead of its pieces.
      const head: Piece[] = ['{'];
      before.forEach(([name, earlier], j) => {
        head.push(label(name, j));
        writeMember(head, name, earlier, undefined);
      });
      head.push(label(key, i));
      insertAt(out, mark, head);
      started = true;
    }
  });
  if (!started) return true;
  out.push('}');
  return false;
}

/**
 * Appends the text of a native member after its name (the last piece of `out`), and records a
 * string member's pieces when the object's members are being recorded.
 */
function writeMember(out: Piece[], key: string, value: unknown, members: Map<string, MemberText> | undefined): void {
  if (typeof value === 'string') {
    const at = out.length;
    pushText(out, value);
    members?.set(key, { value, pieces: out.slice(at) });
  } else if (typeof value === 'object' && value !== null) {
    out.push(JSON.stringify(value));
  } else {
    // A scalar joins its name in one piece: an object with many members then costs one piece each.
    out.push((out.pop() as string) + JSON.stringify(value));
  }
}

/** `"key":`, after a comma unless it is the first member. */
function label(key: string, index: number): string {
  return (index === 0 ? '' : ',') + JSON.stringify(key) + ':';
}

function isSorted(keys: readonly string[]): boolean {
  let previous = '';
  for (const key of keys) {
    if (key < previous) return false;
    previous = key;
  }
  return true;
}

/** Inserts `head` at `mark`, before the pieces written since (as one nested list each). */
function insertAt(out: Piece[], mark: number, head: Pieces): void {
  const tail = out.splice(mark);
  out.push(head, tail);
}

function spend(state: WriteState): void {
  state.nodesLeft -= 1;
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
