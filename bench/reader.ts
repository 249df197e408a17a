/**
 * `createBuzzReader()` against the free `readBuzzContext`, wired into
 * `npm run bench` by bench/run.ts:
 *
 * - verified 1-event and 20-event envelopes, reader (libsecp256k1 for the attestation and every
 *   event, cache off so every read verifies) vs `readBuzzContext` (pure JS): goal ≥ 3.5× faster,
 *   i.e. a ratio ≤ 0.286;
 * - the same envelope read again through the reader's cache vs a keyless (`asserted`) read of
 *   it: goal ≤ 1.5×, i.e. no signature cost left.
 */
import { createBuzzReader } from '../src/read/reader.js';
import { readBuzzContext } from '../src/read/read.js';
import { envelopeCases } from './fixtures.js';
import type { BenchGroup } from './harness.js';

/** Goals, as ratios of this file's cases to their baselines. */
export const READER_TARGETS = { fresh: 1 / 3.5, cached: 1.5 } as const;

function at<T>(pool: readonly T[], i: number): T {
  return pool[i % pool.length] as T;
}

/** The reader groups, with their inputs built and checked (nothing here is timed). */
export async function readerGroups(): Promise<BenchGroup[]> {
  const one = envelopeCases(16, 1, 'reader one');
  const twenty = envelopeCases(6, 20, 'reader twenty');
  const params = (cases: typeof one): unknown[] => cases.map((c) => JSON.parse(c.paramsText) as unknown);
  const oneParams = params(one);
  const twentyParams = params(twenty);
  // One reader per pinned key (each fixture has its own agent); cache off: every read verifies.
  const fresh = async (cases: typeof one) =>
    Promise.all(cases.map((c) => createBuzzReader({ agentPubkey: c.agentPubkey, cacheSize: 0 })));
  const oneReaders = await fresh(one);
  const twentyReaders = await fresh(twenty);
  const cachedReaders = await Promise.all(one.map((c) => createBuzzReader({ agentPubkey: c.agentPubkey })));

  // Sanity: every timed operation takes the path it claims to.
  const check = (ok: boolean, what: string): void => {
    if (!ok) throw new Error(`reader bench fixture: ${what}`);
  };
  for (const reader of [...oneReaders, ...twentyReaders, ...cachedReaders]) check(reader.backend === 'wasm', 'no wasm');
  oneParams.forEach((p, i) => {
    check(at(oneReaders, i).parse(p).trust === 'verified', '1-event read');
    check(at(cachedReaders, i).parse(p).trust === 'verified', 'cached read');
    const asserted = readBuzzContext(p);
    check(asserted.ok && asserted.context.trust === 'asserted', 'keyless read');
  });
  twentyParams.forEach((p, i) => {
    const read = at(twentyReaders, i).parse(p);
    check(read.trust === 'verified' && read.events.length === 20, '20-event read');
  });

  return [
    {
      title: 'reader, 1 event',
      budgetMs: 8000,
      cases: [
        {
          id: 'r1-js',
          label: '(r1) readBuzzContext(params, { agentPubkey }): verified 1-event envelope, pure JS',
          run: (i) => readBuzzContext(at(oneParams, i), { agentPubkey: at(one, i).agentPubkey }),
        },
        {
          id: 'r1-wasm',
          label: '(r1w) createBuzzReader(): same reads, libsecp256k1, cache off',
          baseline: 'r1-js',
          run: (i) => at(oneReaders, i).read(at(oneParams, i)),
        },
      ],
    },
    {
      title: 'reader, 20 events',
      budgetMs: 10000,
      cases: [
        {
          id: 'r20-js',
          label: '(r20) readBuzzContext(params, { agentPubkey }): verified 20-event envelope, pure JS',
          run: (i) => readBuzzContext(at(twentyParams, i), { agentPubkey: at(twenty, i).agentPubkey }),
        },
        {
          id: 'r20-wasm',
          label: '(r20w) createBuzzReader(): same reads, libsecp256k1, cache off',
          baseline: 'r20-js',
          run: (i) => at(twentyReaders, i).read(at(twentyParams, i)),
        },
      ],
    },
    {
      title: 'reader, cached',
      budgetMs: 4000,
      cases: [
        {
          id: 'rc-keyless',
          label: '(rc) readBuzzContext(params): 1-event envelope, no key (asserted)',
          run: (i) => readBuzzContext(at(oneParams, i)),
        },
        {
          id: 'rc-cached',
          label: '(rcc) createBuzzReader(): the same envelope again, verdicts from the cache (verified)',
          baseline: 'rc-keyless',
          run: (i) => at(cachedReaders, i).read(at(oneParams, i)),
        },
      ],
    },
  ];
}
