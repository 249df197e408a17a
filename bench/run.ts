/**
 * `npm run bench`: the performance targets of buzz-meta, measured side by side in one process.
 *
 * Targets (ratios from this one run; figures belong in docs/performance.md):
 * 1. an asserted read of a 4-event draft costs at most as much as `JSON.parse` of the same
 *    `session/prompt` request text (ratio ≤ 1.00);
 * 2. a verified one-event envelope costs at most 1.15× its two bare Schnorr verifications with the
 *    same crypto library (@noble/curves `schnorr.verify`).
 *
 * No verdict is ever measured from a cache: every pool holds distinct envelopes (own keys, own
 * signatures), the bare-verify baseline rotates over the very same signatures, and the reader
 * keeps no state between calls. Exit code is 0 whatever the verdicts: performance is measured here,
 * not asserted in tests.
 *
 * Environment: BENCH_SCALE (multiplies each group's CPU budget; default 1 ≈ 26 s of CPU),
 * BENCH_BATCH_MS (CPU per batch, default 1.5; slow cases run one operation per batch),
 * BENCH_WARMUP_MS (per case, default 300), BENCH_ONLY (comma-separated group title prefixes, e.g. `draft`).
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { schnorr } from '@noble/curves/secp256k1.js';
import { readBuzzContext } from '../src/read/read.js';
import { canonicalJson } from '../src/envelope/canonical-json.js';
import { draftParser, draftSchema } from '../src/draft/schema.js';
import { envelopeParser, envelopeSchema } from '../src/envelope/schema.js';
import { DEFAULT_LIMITS } from '../src/limits.js';
import { type BenchGroup, type BenchResult, quantile, runBench } from './harness.js';
import { draftRequests, envelopeCases } from './fixtures.js';
import { READER_TARGETS, readerGroups } from './reader.js';
import { LEGACY_TARGETS, legacyGroups } from './legacy.js';

const DRAFT_TARGET = 1.0;
const VERIFY_TARGET = 1.15;

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined ? Number.NaN : Number(raw);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    return line?.split(':')[1]?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function at<T>(pool: readonly T[], i: number): T {
  return pool[i % pool.length] as T;
}

// ---------------------------------------------------------------- inputs (built before timing)

const POOL = 64;
const drafts = draftRequests(POOL);
const draftTexts = drafts.map((d) => d.text);
const draftParams = draftTexts.map((text) => (JSON.parse(text) as { params: unknown }).params);
const draftBuzz = draftParams.map((p) => (p as { _meta: { buzz: unknown } })._meta.buzz);
const pr4751Texts = draftRequests(POOL, 'pr4751').map((d) => d.text);
const pr4751Params = pr4751Texts.map((text) => (JSON.parse(text) as { params: unknown }).params);
const pr7063Texts = draftRequests(POOL, 'pr7063').map((d) => d.text);
const pr7063Params = pr7063Texts.map((text) => (JSON.parse(text) as { params: unknown }).params);
const plainDraftSchema = draftSchema(DEFAULT_LIMITS);
const plainEnvelopeSchema = envelopeSchema(DEFAULT_LIMITS);
// The parsers the reader itself uses (z.compile'd where zod can), not a second compilation.
const compiledEnvelopeSchema = envelopeParser(DEFAULT_LIMITS);
const compiledDraftSchema = draftParser(DEFAULT_LIMITS);

const one = envelopeCases(32, 1, 'one');
const four = envelopeCases(16, 4, 'four');
const oneParams = one.map((c) => JSON.parse(c.paramsText) as unknown);
const fourParams = four.map((c) => JSON.parse(c.paramsText) as unknown);
const oneBuzz = oneParams.map((p) => (p as { _meta: { buzz: unknown } })._meta.buzz);
const oneOptions = one.map((c) => ({ agentPubkey: c.agentPubkey }));
const fourOptions = four.map((c) => ({ agentPubkey: c.agentPubkey }));

// Sanity: every timed operation takes the path it claims to (a fast failure would flatter the figures).
for (const params of [...draftParams, ...pr4751Params, ...pr7063Params]) {
  const read = readBuzzContext(params);
  if (!read.ok || read.context.source !== 'meta-draft' || read.context.events.length !== 4) {
    throw new Error(`draft fixture does not read: ${read.ok ? read.context.source : read.error.message}`);
  }
}
for (const params of pr4751Params) {
  const read = readBuzzContext(params);
  if (!read.ok || read.context.source !== 'meta-draft' || read.context.hostChannelType !== 'stream') {
    throw new Error('PR #4751 draft fixture does not read as its dialect');
  }
}
for (const [pool, options, events] of [
  [oneParams, oneOptions, 1],
  [fourParams, fourOptions, 4],
] as const) {
  pool.forEach((params, i) => {
    const read = readBuzzContext(params, at(options, i));
    if (!read.ok || read.context.trust !== 'verified' || read.context.events.length !== events) {
      throw new Error(`envelope fixture does not verify: ${read.ok ? read.context.trust : read.error.message}`);
    }
    const asserted = readBuzzContext(params);
    if (!asserted.ok || asserted.context.trust !== 'asserted') throw new Error('envelope fixture does not read');
  });
}
for (const c of [...one, ...four]) {
  for (const v of c.verifications) {
    if (!schnorr.verify(v.sig, v.msg, v.pub)) throw new Error('bare verification fixture does not verify');
  }
}
if (
  !plainDraftSchema.safeParse(draftBuzz[0]).success ||
  !compiledDraftSchema.safeParse(draftBuzz[0]).success ||
  !plainEnvelopeSchema.safeParse(oneBuzz[0]).success ||
  !compiledEnvelopeSchema.safeParse(oneBuzz[0]).success
) {
  throw new Error('draft schema fixture does not parse');
}

// ---------------------------------------------------------------- cases

function bareVerify(c: (typeof one)[number]): boolean {
  let ok = true;
  for (const v of c.verifications) ok = schnorr.verify(v.sig, v.msg, v.pub) && ok;
  return ok;
}

const groups: BenchGroup[] = [
  {
    title: 'draft',
    budgetMs: 6000,
    cases: [
      {
        id: 'a',
        label: '(a) JSON.parse(request text): 4-event draft + V4 prompt text',
        run: (i): unknown => JSON.parse(at(draftTexts, i)),
      },
      {
        id: 'b',
        label: '(b) readBuzzContext(params): asserted 4-event draft',
        baseline: 'a',
        run: (i) => readBuzzContext(at(draftParams, i)),
      },
      {
        id: 'b-zod',
        label: '· draft schema, zod safeParse (plain)',
        baseline: 'a',
        run: (i) => plainDraftSchema.safeParse(at(draftBuzz, i)),
      },
      {
        id: 'b-jit',
        label: '· draft schema, z.compile(…).safeParse',
        baseline: 'a',
        run: (i) => compiledDraftSchema.safeParse(at(draftBuzz, i)),
      },
    ],
  },
  {
    title: 'draft, PR #4751',
    budgetMs: 4000,
    cases: [
      {
        id: 'a-4751',
        label: '(a) JSON.parse(request text): 4-event PR #4751 draft + V4 prompt text',
        run: (i): unknown => JSON.parse(at(pr4751Texts, i)),
      },
      {
        id: 'b-4751',
        label: '(b) readBuzzContext(params): asserted 4-event PR #4751 draft (stream)',
        baseline: 'a-4751',
        run: (i) => readBuzzContext(at(pr4751Params, i)),
      },
      {
        id: 'a-7063',
        label: '· JSON.parse(request text): 4-event PR #7063 draft + V4 prompt text',
        run: (i): unknown => JSON.parse(at(pr7063Texts, i)),
      },
      {
        id: 'b-7063',
        label: '· readBuzzContext(params): asserted 4-event PR #7063 draft',
        baseline: 'a-7063',
        run: (i) => readBuzzContext(at(pr7063Params, i)),
      },
    ],
  },
  {
    title: 'draft, cold',
    budgetMs: 5000,
    cold: true,
    cases: [
      {
        id: 'a-cold',
        label: '· cold: JSON.parse(request text), single op after a cache sweep',
        run: (i): unknown => JSON.parse(at(draftTexts, i)),
      },
      {
        id: 'b-cold',
        label: '· cold: readBuzzContext(params), asserted 4-event draft, same',
        baseline: 'a-cold',
        run: (i) => readBuzzContext(at(draftParams, i)),
      },
    ],
  },
  {
    title: 'envelope, 1 event',
    budgetMs: 12000,
    cases: [
      { id: 'c', label: '(c) schnorr.verify ×2, bare (@noble/curves)', run: (i) => bareVerify(at(one, i)) },
      {
        id: 'd',
        label: '(d) readBuzzContext(params, { agentPubkey }): verified 1-event envelope',
        baseline: 'c',
        run: (i) => readBuzzContext(at(oneParams, i), at(oneOptions, i)),
      },
      {
        id: 'd-json',
        label: '· JSON.parse(params text) + verified read, 1 event',
        baseline: 'c',
        run: (i) => readBuzzContext(JSON.parse(at(one, i).paramsText), at(oneOptions, i)),
      },
      {
        id: 'd-asserted',
        label: '· readBuzzContext(params): 1-event envelope, no key (asserted)',
        baseline: 'c',
        run: (i) => readBuzzContext(at(oneParams, i)),
      },
      {
        id: 'd-canon',
        label: '· canonicalJson(1-event envelope)',
        baseline: 'c',
        run: (i) => canonicalJson(at(oneBuzz, i)),
      },
    ],
  },
  {
    title: 'envelope schema',
    budgetMs: 3000,
    cases: [
      {
        id: 'g',
        label: '· envelope schema (1 event), zod safeParse (plain, schema of record)',
        run: (i) => plainEnvelopeSchema.safeParse(at(oneBuzz, i)),
      },
      {
        id: 'g-jit',
        label: '· envelope schema (1 event), z.compile(…).safeParse (verify.ts uses it)',
        baseline: 'g',
        run: (i) => compiledEnvelopeSchema.safeParse(at(oneBuzz, i)),
      },
    ],
  },
  {
    title: 'envelope, 4 events',
    budgetMs: 8000,
    cases: [
      { id: 'e', label: '· schnorr.verify ×5, bare (@noble/curves)', run: (i) => bareVerify(at(four, i)) },
      {
        id: 'f',
        label: '· readBuzzContext(params, { agentPubkey }): verified 4-event envelope',
        baseline: 'e',
        run: (i) => readBuzzContext(at(fourParams, i), at(fourOptions, i)),
      },
    ],
  },
];

groups.push(...(await readerGroups()));
// Legacy scraper: inputs are rendered before timing.
const legacy = legacyGroups();
groups.push(...legacy.groups);

// ---------------------------------------------------------------- run

const options = {
  batchMs: envNumber('BENCH_BATCH_MS', 1.5),
  warmupMs: envNumber('BENCH_WARMUP_MS', 300),
  budgetScale: envNumber('BENCH_SCALE', 1),
};

const sample = drafts[0];
console.log('buzz-meta benchmarks (npm run bench)');
console.log(
  `machine: ${cpuModel()}, ${String(availableParallelism())} cores; node ${process.version}; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(
  `inputs: draft request ${String(sample?.bytes)} B (draft ${String(sample?.draftBytes)} B, prompt text ${String(sample?.promptTextBytes)} B), ` +
    `1-event params ${String(Buffer.byteLength(one[0]?.paramsText ?? ''))} B, 4-event params ${String(Buffer.byteLength(four[0]?.paramsText ?? ''))} B; ` +
    `pools: ${String(POOL)} drafts, ${String(one.length)} + ${String(four.length)} envelopes (distinct keys)`,
);
console.log(
  `method: per group, interleaved rounds (alternating order) of ~${String(options.batchMs)} ms CPU batches (≥ 1 op), ` +
    `${String(options.warmupMs)} ms warm-up per case; medians of per-round µs/op; ratio = median of per-round ratios (p25–p75)`,
);

const only = process.env.BENCH_ONLY;
const chosen =
  only === undefined ? groups : groups.filter((g) => only.split(',').some((word) => g.title.startsWith(word.trim())));
(globalThis as { gc?: () => void }).gc?.();
const results = runBench(chosen, options, (message) => {
  if (process.stderr.isTTY) process.stderr.write(`\r${message.padEnd(30)}`);
});
if (process.stderr.isTTY) process.stderr.write(`\r${' '.repeat(30)}\r`);

function fmt(value: number, digits: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function ratioCell(ratio: number | undefined, ratios: readonly number[]): string {
  if (ratio === undefined) return '';
  return `${fmt(ratio, 3)}× (${fmt(quantile(ratios, 0.25), 2)}–${fmt(quantile(ratios, 0.75), 2)})`;
}

function usCell(us: number): string {
  return us >= 100 ? fmt(us, 0) : fmt(us, 2);
}

/** A result's figures on the clock its group is judged on (CPU time; wall clock for cold groups). */
function judged(r: BenchResult): {
  us: number;
  ratio: number | undefined;
  ratios: readonly number[];
  other: number | undefined;
} {
  return r.clock === 'cpu'
    ? { us: r.medianCpuUs, ratio: r.medianCpuRatio, ratios: r.cpuRatios, other: r.medianWallRatio }
    : { us: r.medianWallUs, ratio: r.medianWallRatio, ratios: r.wallRatios, other: undefined };
}

const rows = results.map((r) => {
  const j = judged(r);
  return [
    r.label,
    fmt(1e6 / j.us, 0),
    usCell(j.us),
    r.clock,
    r.clock === 'cpu' ? usCell(r.medianWallUs) : '',
    r.baseline ?? '',
    ratioCell(j.ratio, j.ratios),
    j.other === undefined ? '' : `${fmt(j.other, 3)}×`,
  ];
});
const header = ['case', 'ops/s', 'µs/op', 'clock', 'µs/op (wall)', 'vs', 'ratio (p25–p75)', 'ratio, wall'];
const leftAligned = new Set([0, 3, 5]);
const widths = header.map((h, col) => Math.max(h.length, ...rows.map((row) => (row[col] ?? '').length)));
const line = (cells: readonly string[]): string =>
  '| ' +
  cells
    .map((cell, col) => (leftAligned.has(col) ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0)))
    .join(' | ') +
  ' |';
console.log(line(header));
console.log(
  '| ' + widths.map((w, col) => (leftAligned.has(col) ? '-'.repeat(w) : '-'.repeat(w - 1) + ':')).join(' | ') + ' |',
);
for (const row of rows) console.log(line(row));
console.log('');
for (const title of new Set(results.map((r) => r.group))) {
  const inGroup = results.filter((r) => r.group === title);
  console.log(
    `rounds: ${title}: ${String(inGroup[0]?.rounds)} (ops per batch: ${inGroup.map((r) => `${r.id} ${String(r.opsPerBatch)}`).join(', ')})`,
  );
}
console.log(
  `load average after the run: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log('');

function verdict(id: string, target: number, what: string): void {
  const r = results.find((x) => x.id === id);
  if (r === undefined) {
    console.log(`SKIP  ${what} (group not run)`);
    return;
  }
  const j = judged(r);
  const ratio = j.ratio ?? Number.NaN;
  const clock = r.clock === 'cpu' ? `CPU time (wall clock ${fmt(j.other ?? Number.NaN, 3)}×)` : 'wall clock';
  console.log(`${ratio <= target ? 'PASS' : 'FAIL'}  ${what}: ${fmt(ratio, 3)}× ${clock}, target ≤ ${fmt(target, 2)}×`);
}
verdict('b', DRAFT_TARGET, 'asserted 4-event draft read vs JSON.parse of the request text');
verdict('b-4751', DRAFT_TARGET, 'asserted 4-event PR #4751 draft read vs JSON.parse of its request text');
verdict('d', VERIFY_TARGET, 'verified 1-event envelope vs its 2 bare schnorr.verify');
verdict('b-cold', DRAFT_TARGET, '(informative) the draft target with cold caches, single ops');
verdict(
  'r1-wasm',
  READER_TARGETS.fresh,
  'createBuzzReader() vs readBuzzContext, verified 1-event envelope (goal ≥ 3.5× faster)',
);
verdict(
  'r20-wasm',
  READER_TARGETS.fresh,
  'createBuzzReader() vs readBuzzContext, verified 20-event envelope (goal ≥ 3.5× faster)',
);
verdict('rc-cached', READER_TARGETS.cached, 'same envelope again through the cache vs a keyless (asserted) read');
for (const size of ['10 KB', '100 KB', '1 MB']) {
  verdict(
    `legacy V4 ${size}-scrape`,
    LEGACY_TARGETS.throughput,
    `scrapePromptText vs text.split('\\n'), V4 batch of ${size}`,
  );
}
for (const [id, what] of [
  ['lx-hash', '(# fragments'],
  ['lx-hex', 'hex: fragments'],
  ['lx-sep', '10k forged separators'],
  ['lx-line', 'one 1 MB line'],
]) {
  verdict(
    id ?? '',
    LEGACY_TARGETS.adversarial,
    `adversarial 1 MB (${what ?? ''}) vs a normal 1 MB V4 batch, per character`,
  );
}
for (const [id, what] of [
  ['lh-close', "V5 'Tags:' lines before '</buzz-event>'"],
  ['lh-note', "V4 'Tags:' lines before a blank line and 'Note: '"],
  ['lh-500k', 'one 500 kB message of ends'],
  ['lh-merge', 'steer merge, 50 cancelled, unparsable ends'],
  ['lh-one', 'one string, forged merge of 2,500 blocks'],
  ['lx-starts', 'forged block starts'],
  ['lx-tags', "'Tags: []' flood"],
  ['lx-channels', "'Channel: x' flood"],
]) {
  verdict(id ?? '', LEGACY_TARGETS.hostile, `hostile shape (${what ?? ''}) vs a normal 1 MB V4 batch, per character`);
}
console.log(`legacy input sizes (characters): ${JSON.stringify(legacy.sizes)}`);

// Forged deliveries: single large operations, with their own printout.
if (only === undefined || only.split(',').some((word) => word.trim() === 'forged')) {
  const { runForgedBench } = await import('./forged.js');
  await runForgedBench();
}

// Dedup: async, so measured after the synchronous groups, with its own printout.
// `dedup-redis`: only the Redis rows (standalone and cluster, both clients, 1/4/8 workers);
// `dedup-memory`: only the memory store's rows.
const dedupWords = only?.split(',').map((word) => word.trim()) ?? ['dedup'];
const dedupMemory = dedupWords.includes('dedup') || dedupWords.includes('dedup-memory');
const dedupRedis = dedupWords.includes('dedup') || dedupWords.includes('dedup-redis');
if (dedupMemory || dedupRedis) {
  const { runDedupBench } = await import('./dedup.js');
  await runDedupBench({ memory: dedupMemory, redis: dedupRedis });
}

// buzz-meta proxy: child processes, after everything in process; only when asked for by name
// (`BENCH_ONLY=proxy`) or with every group.
if (only === undefined || only.split(',').some((word) => word.trim() === 'proxy')) {
  const { runProxyBench } = await import('./proxy.js');
  await runProxyBench();
}

// buzz-meta/acp and the command: child processes, so after everything in process.
if (only === undefined || only.split(',').some((word) => word.trim() === 'acp')) {
  const { runAcpBench } = await import('./acp.js');
  await runAcpBench();
}
