/**
 * buzz-meta: which Buzz channel a `session/prompt` came from, who sent each event, and how well
 * that is proven. Public API only; everything lives in its own module.
 *
 * @packageDocumentation
 * @module buzz-meta
 */
export { readBuzzContext, parseBuzzContext } from './read/read.js';
export type { BuzzReadResult, ContextFor } from './read/read.js';
export type { ReadBuzzOptions } from './read/options.js';
export { createBuzzReader } from './read/reader.js';
export { scrapePromptText } from './legacy/scrape.js';
export type { ScrapeOptions, ScrapeResult } from './legacy/scrape.js';
export type { BuzzReader, BuzzReaderOptions } from './read/reader.js';
export { BuzzMetaError, BUZZ_ERROR_CODES } from './errors.js';
export type { BuzzErrorCode, BuzzIssue } from './errors.js';
export type {
  BuzzChannelType,
  BuzzContext,
  BuzzDraftContext,
  BuzzDraftEvent,
  BuzzEnvelopeContext,
  BuzzEvent,
  BuzzIdentifiedEvent,
  BuzzJob,
  BuzzMember,
  BuzzReply,
  BuzzScrapedContext,
  BuzzSignedEvent,
  BuzzSource,
  BuzzVerifiedContext,
  Trust,
} from './context.js';
export { DEFAULT_LIMITS } from './limits.js';
export type { BuzzLimits } from './limits.js';
export { channelKey, senderKey, senderKeys, threadKey, partitionId } from './keys.js';
export type { KeyOptions, PartitionOptions, Partition } from './keys.js';
export { toNpub, toHexPubkey, isNpub } from './npub.js';
export { canonicalJson } from './envelope/canonical-json.js';
export { deliveryIdOf, membershipRevisionOf, payloadHashOf } from './envelope/hashes.js';
export type { DeliveryIdInput } from './envelope/hashes.js';
export { verifyBuzzEnvelope } from './envelope/verify.js';
export type { VerifyEnvelopeOptions, EnvelopeVerification } from './envelope/verify.js';
export { ENVELOPE_DOMAIN, ATTESTATION_ALGORITHM, JOB_TITLE_MAX_BYTES } from './envelope/schema.js';
export { createDeduper } from './dedup/deduper.js';
export type { DeduperOptions, StoreErrorPolicy } from './dedup/deduper.js';
export { createMemoryStore } from './dedup/memory-store.js';
export type { MemoryStore, MemoryStoreOptions } from './dedup/memory-store.js';
export { dedupKeyOf } from './dedup/event-key.js';
export type {
  BuzzClaim,
  ClaimOptions,
  Deduper,
  DedupClaimAnswer,
  DedupStore,
  DedupStoreRequest,
  DedupClaimRequest,
  DedupCommitRequest,
} from './dedup/types.js';
