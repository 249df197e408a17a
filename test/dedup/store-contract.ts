/**
 * The `DedupStore` contract of `buzz-meta/testing`, registered with vitest: one test per case, a
 * fresh harness each. The memory store (an injected clock), Redis and Redis Cluster (real TTLs)
 * run it through here, as a user's store runs it through their own runner.
 *
 * @packageDocumentation
 */
import { describe, test } from 'vitest';
import { type StoreContractTiming, type StoreHarness, storeContractCases } from '../../src/testing.js';

/** Registers the contract tests for the stores `setup` makes. */
export function describeStoreContract(
  name: string,
  timing: StoreContractTiming,
  setup: () => StoreHarness | Promise<StoreHarness>,
): void {
  describe(`DedupStore contract: ${name}`, () => {
    for (const contractCase of storeContractCases(timing)) {
      test(contractCase.name, async () => {
        await contractCase.run(await setup());
      });
    }
  });
}
