// docs/dedup.md's one-agent example, type-checked (test/dedup/readme-dedup.test.ts keeps them equal).
// In your project, import from 'buzz-meta'; inside this repository the source is imported instead.
// --- snippet ---
import { createDeduper, type BuzzContext, type BuzzEvent } from '../src/index.js';

declare function remember(event: BuzzEvent): Promise<void>; // your per-event work

const deduper = createDeduper(); // in memory; ttlMs 24 h, leaseMs 5 min, onStoreError 'fail-open'
export async function onDelivery(context: BuzzContext): Promise<void> {
  const claim = await deduper.claim(context); // fresh: act on these; seen: handled or in flight elsewhere
  try {
    for (const event of [...claim.fresh, ...(claim.carried ?? [])]) await remember(event);
    await claim.commit(); // handled for ttlMs
  } catch (error) {
    await claim.release(); // claimable again at once (the host retries)
    throw error;
  }
}
