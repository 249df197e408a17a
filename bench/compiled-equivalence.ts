/**
 * Differential check behind the reader's use of `z.compile`: on valid and mutated inputs, the
 * compiled schemas must answer exactly as the plain zod schemas of record do — same success, same
 * output (values and key order), same issues (codes, paths, messages). Covers the draft parser the
 * reader uses (`draftParser`) and a compiled envelope schema the verifier uses (`envelopeParser`).
 *
 * `node --import tsx bench/compiled-equivalence.ts [runs] [--self-test]` (default 20,000 runs per
 * schema; `--self-test` first checks that a real difference is caught).
 * Exits 1 on the first difference, printing the input.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import * as z from 'zod';
import { buildDraftSchema, draftParser, draftSchema } from '../src/draft/schema.js';
import { buildEnvelopeSchema, envelopeParser } from '../src/envelope/schema.js';
import { DEFAULT_LIMITS, type BuzzLimits } from '../src/limits.js';
import { draftRequests, envelopeCases } from './fixtures.js';

const runs = Number(process.argv[2] ?? 20_000);

type Json = unknown;

/** Every path (as key lists) of containers and leaves in a JSON value. */
function paths(value: Json, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((item, i) => paths(item, [...prefix, i], out));
  else if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) paths((value as Record<string, Json>)[key], [...prefix, key], out);
  }
  return out;
}

/** A deep copy through JSON text (keeps own `__proto__` keys as data, like a received request). */
function copy(value: Json): Json {
  return JSON.parse(JSON.stringify(value));
}

type Edit = { kind: 'set'; value: Json } | { kind: 'delete' } | { kind: 'proto' } | { kind: 'grow'; times: number };

function applyEdit(root: Json, path: readonly (string | number)[], edit: Edit): Json {
  if (path.length === 0) return edit.kind === 'set' ? edit.value : root;
  const out = copy(root);
  let parent = out as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path.at(-1) ?? '';
  switch (edit.kind) {
    case 'set':
      parent[last] = edit.value;
      break;
    case 'delete':
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else Reflect.deleteProperty(parent, last);
      break;
    case 'proto': {
      const target = parent[last];
      if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
        Object.defineProperty(target, '__proto__', {
          value: { polluted: 1 },
          enumerable: true,
          configurable: true,
          writable: true,
        });
      }
      break;
    }
    case 'grow': {
      const target = parent[last];
      if (Array.isArray(target) && target.length > 0) {
        for (let i = 0; i < edit.times; i++) target.push(copy(target[i % target.length]));
      }
      break;
    }
  }
  return out;
}

const hexChar = fc.constantFrom(...'0123456789abcdefABCDEFg-'.split(''));
const leaf = fc.oneof(
  fc.constantFrom<Json>(
    null,
    true,
    false,
    0,
    -0,
    1,
    -1,
    1.5,
    2 ** 53,
    2 ** 53 - 1,
    65_535,
    65_536,
    Number.NaN,
    Infinity,
    '',
    'dm',
    'channel',
    'member',
    'owner',
    'request',
    1,
    'bip340-sha256',
  ),
  fc.string({ maxLength: 80 }),
  fc.array(hexChar, { minLength: 60, maxLength: 130 }).map((chars) => chars.join('')),
  fc.integer(),
  fc.double(),
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ unit: 'binary', maxLength: 600 }),
);
const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 6, arbitrary: leaf.map((value) => ({ kind: 'set' as const, value })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'delete' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'proto' as const }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 120 }).map((times) => ({ kind: 'grow' as const, times })) },
);

/** Same value, same own-key order at every level. */
function sameShape(a: unknown, b: unknown): boolean {
  if (!isDeepStrictEqual(a, b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.every((item, i) => sameShape(item, b[i]));
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      isDeepStrictEqual(ka, kb) &&
      ka.every((k) => sameShape((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return true;
}

function compare(name: string, plain: z.ZodType, compiled: z.ZodType, input: Json): void {
  const p = plain.safeParse(input);
  const c = compiled.safeParse(input);
  const same =
    p.success === c.success &&
    (p.success ? sameShape(p.data, c.data) : isDeepStrictEqual(p.error.issues, c.error?.issues));
  if (!same) {
    console.error(`DIFFERENCE in ${name} for input:`, JSON.stringify(input));
    console.error('plain:', JSON.stringify(p.success ? p.data : p.error.issues));
    console.error('compiled:', JSON.stringify(c.success ? c.data : c.error.issues));
    process.exit(1);
  }
}

function check(name: string, plain: z.ZodType, compiled: z.ZodType, seeds: readonly Json[]): void {
  if (!('validator' in (compiled as unknown as { _zod: { bag: object } })._zod.bag)) {
    throw new Error(`${name}: the parser is not compiled`);
  }
  let valid = 0;
  fc.assert(
    fc.property(
      fc.constantFrom(...seeds),
      fc.array(fc.tuple(fc.nat(), edit), { minLength: 0, maxLength: 3 }),
      (seed, edits) => {
        let input = copy(seed);
        for (const [at, e] of edits) {
          const all = paths(input);
          input = applyEdit(input, all[at % all.length] ?? [], e);
        }
        compare(name, plain, compiled, input);
        if (plain.safeParse(input).success) valid++;
      },
    ),
    { numRuns: runs },
  );
  console.log(`${name}: ${String(runs)} inputs, ${String(valid)} valid, plain and compiled agree`);
}

const drafts = draftRequests(4).map(
  (r) => (JSON.parse(r.text) as { params: { _meta: { buzz: Json } } }).params._meta.buzz,
);
const withCancelled = drafts.map((d) => {
  const out = copy(d) as { events: Json[]; cancelledEvents?: Json[] };
  out.cancelledEvents = out.events.slice(0, 2);
  return out;
});
const withoutCancelled = drafts.map((d) => {
  const out = copy(d) as { cancelledEvents?: Json[] };
  delete out.cancelledEvents;
  return out;
});
const envelopes = [...envelopeCases(2, 1, 'eq1'), ...envelopeCases(2, 3, 'eq3')].map((c) => copy(c.envelope));
const withJob = envelopes.map((e) => {
  const out = copy(e) as Record<string, Json> & { events: { id: string }[] };
  out.job = {
    jobId: 'a'.repeat(64),
    action: 'request',
    eventId: out.events[0]?.id ?? '',
    title: 'Résumé the deploy log ✓',
    dueAt: null,
  };
  return out;
});

const small: BuzzLimits = Object.freeze({
  ...DEFAULT_LIMITS,
  maxEvents: 3,
  maxTags: 4,
  maxTagValues: 3,
  maxTagValueLength: 70,
  maxContentLength: 120,
  maxMembers: 2,
});
if (process.argv[3] === '--self-test') {
  // The checker must notice a real difference: a plain schema against a compiled one of other limits.
  check('self-test (must fail)', buildDraftSchema(DEFAULT_LIMITS), draftParser(small), [...drafts, ...withCancelled]);
}
const shortDrafts = drafts.map((d) => {
  const out = copy(d) as { events: Json[] };
  out.events = out.events.slice(0, 2);
  return out;
});
for (const limits of [DEFAULT_LIMITS, small]) {
  if (draftParser(limits) === draftSchema(limits)) throw new Error('draftParser is not compiled');
  const tag = limits === DEFAULT_LIMITS ? 'default limits' : 'small limits';
  check(`draft (${tag})`, buildDraftSchema(limits), draftParser(limits), [
    ...drafts,
    ...withCancelled,
    ...withoutCancelled,
    ...shortDrafts,
  ]);
}
for (const limits of [DEFAULT_LIMITS, small]) {
  // The envelope reader (verify.ts) still parses with the plain schema; this checks that switching
  // it to the compiled one would change nothing either.
  const tag = limits === DEFAULT_LIMITS ? 'default limits' : 'small limits';
  check(`envelope (${tag})`, buildEnvelopeSchema(limits), envelopeParser(limits), [...envelopes, ...withJob]);
}
