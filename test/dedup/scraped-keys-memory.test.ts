/**
 * What a memory store keeps of a scraped delivery: the id and channel strings, not the prompt
 * they were read from. V8 makes a substring a view of its parent, so an id kept as cut from the
 * prompt keeps the whole prompt alive for the store's TTL. Measured on the heap after a full
 * garbage collection: 100 remembered ids from 500 kB prompts must hold far less than one prompt
 * each (the bound is 50 kB per id, 100× under a pinned prompt and 250× over the real cost, so
 * heap noise cannot decide it). The exact figure (bytes per id) is the bench's (bench/dedup.ts).
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { expect, test } from 'vitest';
import type { BuzzContext } from '../../src/context.js';
import { createDeduper } from '../../src/dedup/deduper.js';
import { createMemoryStore } from '../../src/dedup/memory-store.js';
import { ownCopy } from '../../src/shared/own-copy.js';
import { readBuzzContext } from '../../src/read/read.js';
import { ALICE, chat, ENGINEERING } from '../legacy/fixtures.js';
import { eventSection, prompt } from '../legacy/render.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const PROMPTS = 100;
const PROMPT_CHARS = 500_000;
const filler = 'x'.repeat(PROMPT_CHARS);

/** The context of a one-event V4 prompt of about 500 kB; the text itself is not kept. */
function scraped(n: number): BuzzContext {
  const text = eventSection('v4', [chat(ALICE, `${filler} ${String(n)}`)], ENGINEERING);
  const read = readBuzzContext({ sessionId: 's', prompt: prompt(text) });
  if (!read.ok) throw new Error(read.error.message);
  return read.context;
}

test('remembered ids of scraped prompts do not keep the prompts alive', { timeout: 60_000 }, async () => {
  const deduper = createDeduper({ store: createMemoryStore() });
  await (await deduper.claim(scraped(-1))).commit(); // the store's first channel and write orders
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let n = 0; n < PROMPTS; n++) {
    const claim = await deduper.claim(scraped(n));
    expect(claim.fresh).toHaveLength(1);
    await claim.commit();
  }
  gc();
  const perId = (process.memoryUsage().heapUsed - before) / PROMPTS;
  expect(perId).toBeLessThan(50_000);
});

test('the copy is the same string, whatever its characters', () => {
  for (const text of ['', 'a', 'f'.repeat(64), 'é€😀', '\ud800 lone \udfff', '\u0000\uffff']) {
    expect(ownCopy(text)).toBe(text);
  }
});
