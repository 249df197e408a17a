/**
 * `buzz-meta/testing`: what a user's own tests need from buzz-meta. The `DedupStore` contract as
 * named cases to run against a store of your own (the memory and Redis stores that ship run the
 * same cases). Load it from tests only.
 *
 * @packageDocumentation
 * @module buzz-meta/testing
 */
export {
  storeContractCases,
  type StoreContractCase,
  type StoreContractTiming,
  type StoreHarness,
} from './dedup/store-contract.js';
