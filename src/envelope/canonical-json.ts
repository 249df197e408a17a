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
import { safePointer } from '../shared/redact.js';
import { ENVELOPE_KEY_NAMES } from './schema.js';
import { SCANNED_FROM, mayNeedJsonEscaping } from './escape-scan.js';

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
interface CanonicalOptions {
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
}

/**
 * Serializes a JSON value canonically.
 *
 * @example
 * ```ts
 * canonicalJson({ b: [1, 'é'], a: null }) // '{"a":null,"b":[1,"é"]}'
 * ```
 * A `toJSON` method is never called (JSON.stringify would call one): the value's own data is written.
 *
 * @throws BuzzMetaError `canonical_json` for a non-integer or unsafe number or a value JSON cannot
 *   carry (undefined, function, bigint, symbol); `limit_exceeded` for nesting deeper than `maxDepth`
 *   (cycles included) or more than `maxNodes` values visited. Paths name only keys the Buzz
 *   contract defines (others are written `*`), and messages never repeat a key or a value.
 * @group Envelope
 */
export function canonicalJson(
  value: unknown,
  maxDepth: number = DEFAULT_MAX_DEPTH,
  maxNodes: number = DEFAULT_LIMITS.maxNodes,
): string {
  return joinPieces(canonicalPieces(value, { maxDepth, maxNodes }));
}

/** The text of {@link Pieces}: their concatenation. */
function joinPieces(pieces: Pieces): string {
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
  };
  const out: Piece[] = [];
  write(value, options.maxDepth, state, out);
  return out;
}

/**
 * Appends `JSON.stringify(value)` for a scalar. A string that needs no escaping is written as three
 * pieces around the string itself: no copy of a large text is made, and the scan that decides it
 * ({@link mayNeedJsonEscaping}) costs a fraction of JSON.stringify's.
 */
function pushText(out: Piece[], value: unknown): void {
  if (typeof value === 'string' && !mayNeedJsonEscaping(value)) out.push('"', value, '"');
  else out.push(JSON.stringify(value));
}

/** One entry of a piece list being written. */
type Piece = string | Pieces;

interface WriteState {
  nodesLeft: number;
  readonly path: (string | number)[];
  readonly texts: Map<object, Pieces | undefined> | undefined;
  readonly members: ReadonlyMap<object, Map<string, MemberText>> | undefined;
}

/** Checks `value` and appends its canonical text to `out`. */
function write(value: unknown, depthLeft: number, state: WriteState, out: Piece[]): void {
  spend(state);
  if (typeof value !== 'object' || value === null) {
    checkScalar(value, state.path);
    pushText(out, value);
    return;
  }
  const known = state.texts?.get(value);
  if (known !== undefined) {
    out.push(known);
    return;
  }
  if (depthLeft <= 0) {
    throw BuzzMetaError.of(
      'limit_exceeded',
      safePointer(state.path, ENVELOPE_KEY_NAMES),
      'value is nested more deeply than maxDepth allows',
    );
  }
  // A sub-object whose text is to be kept is written into a list of its own, kept by reference.
  const own: Piece[] = state.texts?.has(value) === true ? [] : out;
  if (Array.isArray(value)) writeArray(value, depthLeft, state, own);
  else writeObject(value, depthLeft, state, own);
  if (own === out) return;
  state.texts?.set(value, own);
  out.push(own);
}

/** Throws unless `value` is a JSON scalar canonical JSON can carry (null, boolean, string, safe integer). */
function checkScalar(value: unknown, path: readonly (string | number)[]): void {
  switch (typeof value) {
    case 'number':
      if (!Number.isSafeInteger(value)) {
        throw canonicalError(path, 'numbers must be safe integers (canonical JSON has no fractions or exponents)');
      }
      // JSON.stringify(-0) is "0", as upstream (serde_json) reads "-0".
      return;
    case 'string':
    case 'boolean':
    case 'object': // null
      return;
    default:
      throw canonicalError(path, `a ${typeof value} cannot be represented in JSON`);
  }
}

/** A scalar that is not a string long enough to be scanned rather than matched. */
function isShortScalar(value: unknown): boolean {
  // Stryker disable next-line all: which strings count as short is a speed choice; both writers give the same text
  if (typeof value === 'string') return value.length < SCANNED_FROM;
  return typeof value !== 'object' || value === null;
}

function writeArray(items: readonly unknown[], depthLeft: number, state: WriteState, out: Piece[]): void {
  // An array of short scalars (a tag, the eventIds, a long list of numbers) is checked item by item
  // and written by one JSON.stringify call; JSON.stringify would call a toJSON the array has or
  // inherits (a polluted Object.prototype included), so such an array is written item by item, and
  // so is one holding a long string, whose text is better written around itself (pushText).
  if (!('toJSON' in items) && items.every(isShortScalar)) {
    for (let index = 0; index < items.length; index++) {
      spend(state);
      const item: unknown = items[index];
      if (!isCanonicalScalar(item)) {
        state.path.push(index);
        checkScalar(item, state.path);
      }
    }
    out.push(JSON.stringify(items));
    return;
  }
  out.push('[');
  items.forEach((item, index) => {
    if (index > 0) out.push(',');
    state.path.push(index);
    write(item, depthLeft - 1, state, out);
    state.path.pop();
  });
  out.push(']');
}

function writeObject(record: object, depthLeft: number, state: WriteState, out: Piece[]): void {
  const keys = Object.keys(record);
  const members = state.members?.get(record);
  // Default sort compares UTF-16 code units, which is what RFC 8785 §3.2.3 asks for.
  keys.sort();
  // A run of short scalar members is written as one string: one piece to keep and hash, not two
  // a member (an object with many unknown keys is otherwise mostly bookkeeping).
  let run: string[] = ['{'];
  keys.forEach((key, index) => {
    const value: unknown = (record as Readonly<Record<string, unknown>>)[key];
    const head = (index === 0 ? '' : ',') + JSON.stringify(key) + ':';
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the run is a speed path (an event's members are recorded for reuse); the other path writes the same text
    if (members === undefined && isShortScalar(value)) {
      spend(state);
      if (!isCanonicalScalar(value)) {
        state.path.push(key);
        checkScalar(value, state.path);
      }
      run.push(head + JSON.stringify(value));
      return;
    }
    run.push(head);
    out.push(run.join(''));
    run = [];
    const at = out.length;
    state.path.push(key);
    write(value, depthLeft - 1, state, out);
    state.path.pop();
    if (typeof value === 'string') members?.set(key, { value, pieces: out.slice(at) });
  });
  run.push('}');
  out.push(run.join(''));
}

/** A scalar canonical JSON writes as JSON.stringify does: null, a boolean, a string or a safe integer. */
function isCanonicalScalar(value: unknown): boolean {
  return typeof value === 'number'
    ? Number.isSafeInteger(value)
    : typeof value !== 'object'
      ? typeof value === 'string' || typeof value === 'boolean'
      : value === null;
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

/** The error for a value canonical JSON cannot write, at its (redacted) path. */
function canonicalError(path: readonly (string | number)[], message: string): BuzzMetaError {
  return BuzzMetaError.of('canonical_json', safePointer(path, ENVELOPE_KEY_NAMES), message);
}
