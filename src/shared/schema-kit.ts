/**
 * Shared pieces for the zod schemas of both `_meta.buzz` shapes, and the one place zod's
 * findings become {@link BuzzIssue}s. Zod types stay internal: the public API speaks in plain
 * TypeScript types, so an app on another zod minor never meets a type-brand clash.
 */
import * as z from 'zod';
import { type BuzzErrorCode, type BuzzIssue, BuzzMetaError, pointer, type Result } from '../errors.js';
import { HEX128_PATTERN, HEX64_PATTERN, UUID_PATTERN } from './hex.js';
import { type BuzzLimits, limitsKey } from '../limits.js';
import { isWellFormedUtf16, printable } from './utf16.js';

/** Hex digits of either case: tells "upper case" apart from "not hex" in a message. */
const ANY_CASE_HEX = /^[0-9a-f]+$/i;

/** Exactly `digits` lowercase hex digits, with messages that say what to fix (never the value). */
function lowercaseHex(digits: number, pattern: RegExp) {
  const want = `must be ${String(digits)} lowercase hex digits`;
  return z
    .string()
    .length(digits, { error: (issue) => `${want}; got ${String(lengthOf(issue.input))} characters` })
    .regex(pattern, {
      error: (issue) =>
        typeof issue.input === 'string' && ANY_CASE_HEX.test(issue.input)
          ? `${want}: upper-case A–F are not accepted (write it in lowercase)`
          : `${want} (0–9, a–f)`,
    });
}

function lengthOf(input: unknown): number {
  return typeof input === 'string' ? input.length : 0;
}

/** 64 lowercase hex digits. */
export const hex64 = lowercaseHex(64, HEX64_PATTERN);
/** 128 lowercase hex digits. */
export const hex128 = lowercaseHex(128, HEX128_PATTERN);
/** Lowercase hyphenated UUID. */
export const uuid = z
  .string()
  .length(36, { error: 'must be a lowercase, hyphenated UUID (36 characters)' })
  .regex(UUID_PATTERN, {
    error: (issue) =>
      typeof issue.input === 'string' && UUID_PATTERN.test(issue.input.toLowerCase())
        ? 'must be a lowercase, hyphenated UUID: upper-case A–F are not accepted (write it in lowercase)'
        : 'must be a lowercase, hyphenated UUID',
  });

/**
 * Event text (content, a tag value): at most `max` UTF-16 code units (zod's own `max` counts code
 * points, which lets astral text through at twice the bound), and well-formed UTF-16. A longer
 * one is `limit_exceeded`, naming the option. A lone surrogate is refused: buzz-acp (Rust) can
 * never send one, and a Rust consumer of the same delivery could not parse it.
 */
export function eventText(max: number, option: keyof BuzzLimits, what: string) {
  return z
    .string()
    .refine((text) => text.length <= max, {
      error: `${what} is longer than limits.${option} (${String(max)} UTF-16 code units)`,
      params: { [SIZE_LIMIT]: true },
      abort: true,
    })
    .refine(isWellFormedUtf16, {
      error: `${what} is not well-formed UTF-16 (it holds a lone surrogate, which buzz-acp never sends)`,
    })
    .meta({ maxLength: max });
}
/** Unix seconds. */
export const unixSeconds = z.int().min(0);
/** A Nostr kind (NIP-01: 0–65535). */
export const nostrKind = z.int().min(0).max(65_535);

/**
 * The same schema behind zod's JIT (`z.compile`, zod ≥ 4.6), for the hot read path. The compiled
 * fast path only decides "valid → this output"; anything it does not accept is parsed again by the
 * plain schema, so verdicts, issues (codes, paths, messages) and outputs are the plain schema's.
 * The plain schema stays the schema of record (JSON Schema, docs). The plain schema is returned
 * on a zod 4 without `z.compile` (the peer range is `^4`), under `z.config({ jitless: true })`
 * (CSP, no `new Function`), and wherever zod declines to compile.
 */
function compiledForReading<T extends z.ZodType>(schema: T): T {
  const compile = (z as { readonly compile?: (s: T) => T }).compile;
  if (typeof compile !== 'function' || z.config().jitless === true) return schema;
  try {
    return compile(schema);
  } catch {
    return schema;
  }
}

/** A schema built per set of limits: the plain one (of record) and its compiled twin for reading. */
interface LimitedSchemas<T extends z.ZodType> {
  /** The plain schema for these limits, built once per distinct set of limits. */
  schema(limits: BuzzLimits): T;
  /** The same schema for the hot read path (see {@link compiledForReading}). */
  parser(limits: BuzzLimits): T;
}

/**
 * Caches `build(limits)` per distinct set of limits (at most 16 sets), and its compiled twin.
 * The last limits object is remembered by identity so repeated reads skip building the key; sound
 * because readers pass only `resolveLimits` output, which is frozen.
 */
export function limitedSchemas<T extends z.ZodType>(build: (limits: BuzzLimits) => T): LimitedSchemas<T> {
  const byKey = new Map<string, { readonly schema: T; parser: T | undefined }>();
  let last: { readonly limits: BuzzLimits; readonly parser: T } | undefined;
  const entry = (limits: BuzzLimits): { readonly schema: T; parser: T | undefined } => {
    const key = limitsKey(limits);
    let found = byKey.get(key);
    if (found === undefined) {
      found = { schema: build(limits), parser: undefined };
      if (byKey.size < 16) byKey.set(key, found);
    }
    return found;
  };
  return {
    schema: (limits) => entry(limits).schema,
    parser: (limits) => {
      if (last?.limits === limits) return last.parser;
      const found = entry(limits);
      found.parser ??= compiledForReading(found.schema);
      last = { limits, parser: found.parser };
      return found.parser;
    },
  };
}

/**
 * `-0` as `0`. Canonical JSON writes both as `0` (and upstream's serde_json reads `-0` as the
 * integer 0), so a `-0` verifies where `0` was signed; a context carries the signed value.
 */
export function plusZero(value: number): number {
  return value === 0 ? 0 : value;
}

/** The path prefix every issue under `_meta.buzz` carries. */
export const BUZZ_PATH = ['_meta', 'buzz'] as const;

/**
 * Runs a schema and returns its typed output, or a {@link BuzzMetaError} listing every finding.
 * Size findings (too many items, too long a string) become `limit_exceeded`; everything else `shapeCode`.
 */
export function parseWith<T>(schema: z.ZodType<T>, input: unknown, shapeCode: BuzzErrorCode): Result<T> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const issues: BuzzIssue[] = result.error.issues.map((issue) => ({
    code: isSizeLimit(issue) ? 'limit_exceeded' : shapeCode,
    path: pointer([...BUZZ_PATH, ...issue.path.map((segment) => (typeof segment === 'symbol' ? '?' : segment))]),
    message: issue.message,
  }));
  // Surface a size finding first: it explains why the rest was not worth reading.
  issues.sort((a, b) => Number(b.code === 'limit_exceeded') - Number(a.code === 'limit_exceeded'));
  const [first, ...rest] = issues;
  if (first === undefined) {
    return { ok: false, error: BuzzMetaError.of(shapeCode, pointer(BUZZ_PATH), 'invalid value') };
  }
  return { ok: false, error: new BuzzMetaError(first, ...rest) };
}

/** A size bound (array items, string length) was exceeded — not a wrong value or an exact-length shape. */
function isSizeLimit(issue: z.core.$ZodIssue): boolean {
  if (issue.code === 'custom') return issue.params?.[SIZE_LIMIT] === true;
  return issue.code === 'too_big' && (issue.origin === 'array' || issue.origin === 'string') && issue.exact !== true;
}

/** Marks a custom (refine) check as a size bound, e.g. `{ params: { [SIZE_LIMIT]: true } }`. */
export const SIZE_LIMIT = 'buzzSizeLimit';

/** Refuses an over-long array before a schema walks it: linear work on hostile input stays small. */
export function checkArrayLength(
  owner: unknown,
  key: string,
  max: number,
  path: readonly (string | number)[],
  option: keyof BuzzLimits,
): BuzzMetaError | undefined {
  if (typeof owner !== 'object' || owner === null) return undefined;
  const value: unknown = Object.hasOwn(owner, key) ? (owner as Record<string, unknown>)[key] : undefined;
  if (Array.isArray(value) && value.length > max) {
    return BuzzMetaError.of(
      'limit_exceeded',
      pointer([...path, key]),
      `at most ${String(max)} items are read (limits.${option}); got ${String(value.length)}`,
    );
  }
  return undefined;
}

/**
 * Appends a diagnostic for each own key of `value` that the contract does not define.
 * Unknown keys are tolerated (forward compatibility) and reported, never copied: at most 64 UTF-16
 * units of a name (a surrogate pair is never split), control and format characters as U+FFFD.
 */
export function reportUnknownKeys(
  value: unknown,
  known: ReadonlySet<string>,
  path: readonly (string | number)[],
  out: string[],
): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  let unknown = 0;
  for (const key of Object.keys(value)) {
    if (known.has(key)) continue;
    unknown++;
    if (unknown <= MAX_REPORTED_KEYS) out.push(`unknown key ${pointer([...path, printable(key, 64)])} ignored`);
  }
  if (unknown > MAX_REPORTED_KEYS) {
    out.push(`${String(unknown - MAX_REPORTED_KEYS)} more unknown keys under ${pointer(path) || '/'} ignored`);
  }
}

/** Unknown keys named per object; the rest are counted. Keeps diagnostics small on hostile input. */
const MAX_REPORTED_KEYS = 8;
