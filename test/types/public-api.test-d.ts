/**
 * Type-level tests of the public API (`vitest --typecheck`; `npm test` runs them). They pin what
 * agent code can rely on at compile time: results narrow on `ok`, `minTrust` narrows the context
 * type, `source`/`trust` discriminate the context union, and misuse does not compile.
 */
import { describe, expectTypeOf, test } from 'vitest';
import {
  BuzzMetaError,
  channelKey,
  isNpub,
  parseBuzzContext,
  partitionId,
  readBuzzContext,
  senderKey,
  senderKeys,
  threadKey,
  toHexPubkey,
  toNpub,
  verifyBuzzEnvelope,
  type BuzzContext,
  type BuzzDraftContext,
  type BuzzEnvelopeContext,
  type BuzzErrorCode,
  type BuzzIssue,
  type BuzzEvent,
  type BuzzReadResult,
  type BuzzScrapedContext,
  type BuzzSignedEvent,
  type BuzzSource,
  type BuzzVerifiedContext,
  type Partition,
  type Trust,
} from '../../src/index.js';

declare const params: unknown;
declare const ctx: BuzzContext;

describe('readBuzzContext', () => {
  test('returns a result that narrows on ok', () => {
    const result = readBuzzContext(params);
    expectTypeOf(result).toEqualTypeOf<BuzzReadResult>();
    if (result.ok) {
      expectTypeOf(result.context).toEqualTypeOf<BuzzContext>();
      expectTypeOf(result).not.toHaveProperty('error');
    } else {
      expectTypeOf(result.error).toEqualTypeOf<BuzzMetaError>();
      expectTypeOf(result.error.code).toEqualTypeOf<BuzzErrorCode>();
      expectTypeOf(result).not.toHaveProperty('context');
    }
  });

  test('minTrust narrows the context type', () => {
    const verified = readBuzzContext(params, { agentPubkey: 'npub1x', minTrust: 'verified' });
    if (verified.ok) {
      expectTypeOf(verified.context).toEqualTypeOf<BuzzVerifiedContext>();
      expectTypeOf(verified.context.trust).toEqualTypeOf<'verified'>();
      expectTypeOf(verified.context.deliveryId).toEqualTypeOf<string>();
    }

    const asserted = readBuzzContext(params, { minTrust: 'asserted' });
    if (asserted.ok) {
      expectTypeOf(asserted.context).toEqualTypeOf<BuzzEnvelopeContext | BuzzDraftContext>();
      expectTypeOf(asserted.context.trust).toEqualTypeOf<'verified' | 'asserted'>();
      expectTypeOf(asserted.context.source).toEqualTypeOf<'envelope-v1' | 'meta-draft'>();
    }

    const anything = readBuzzContext(params, { minTrust: 'scraped', scrape: true });
    if (anything.ok) expectTypeOf(anything.context).toEqualTypeOf<BuzzContext>();
  });

  test('rejects options that are not part of the contract', () => {
    // @ts-expect-error: not a trust level
    readBuzzContext(params, { minTrust: 'signed' });
    // @ts-expect-error: agentPubkey is a string (hex or npub)
    readBuzzContext(params, { agentPubkey: new Uint8Array(32) });
    // @ts-expect-error: limits are numbers
    readBuzzContext(params, { limits: { maxEvents: '10' } });
  });
});

describe('parseBuzzContext', () => {
  test('returns the context itself, narrowed by minTrust', () => {
    expectTypeOf(parseBuzzContext(params)).toEqualTypeOf<BuzzContext>();
    expectTypeOf(
      parseBuzzContext(params, { agentPubkey: 'x', minTrust: 'verified' }),
    ).toEqualTypeOf<BuzzVerifiedContext>();
  });
});

describe('BuzzContext', () => {
  test('trust and source are closed unions', () => {
    expectTypeOf(ctx.trust).toEqualTypeOf<Trust>();
    expectTypeOf<Trust>().toEqualTypeOf<'verified' | 'asserted' | 'scraped'>();
    expectTypeOf(ctx.source).toEqualTypeOf<BuzzSource>();
    expectTypeOf<BuzzSource>().toEqualTypeOf<'envelope-v1' | 'meta-draft' | 'prompt-text'>();
    expectTypeOf(ctx.channelType).toEqualTypeOf<'dm' | 'channel' | 'unknown'>();
  });

  test('source discriminates the union', () => {
    if (ctx.source === 'envelope-v1') {
      expectTypeOf(ctx).toEqualTypeOf<BuzzEnvelopeContext>();
      expectTypeOf(ctx.trust).toEqualTypeOf<'verified' | 'asserted'>();
      expectTypeOf(ctx.events).toEqualTypeOf<readonly BuzzSignedEvent[]>();
      expectTypeOf(ctx.reply.replyToEventId).toEqualTypeOf<string>();
    } else if (ctx.source === 'meta-draft') {
      expectTypeOf(ctx).toEqualTypeOf<BuzzDraftContext>();
      expectTypeOf(ctx.trust).toEqualTypeOf<'asserted'>();
      expectTypeOf(ctx.events[0]?.id).toEqualTypeOf<string | undefined>();
      // PR #7063 drafts carry no kind or time; PR #4751 drafts say unknown, and keep the host's value.
      expectTypeOf(ctx.events[0]?.kind).toEqualTypeOf<number | null | undefined>();
      expectTypeOf(ctx.events[0]?.createdAt).toEqualTypeOf<number | null | undefined>();
      expectTypeOf(ctx.channelType).toEqualTypeOf<'dm' | 'channel' | 'unknown'>();
      expectTypeOf(ctx.hostChannelType).toEqualTypeOf<string | undefined>();
    } else {
      expectTypeOf(ctx).toEqualTypeOf<BuzzScrapedContext>();
      expectTypeOf(ctx.trust).toEqualTypeOf<'scraped'>();
      expectTypeOf(ctx.channelName).toEqualTypeOf<string | undefined>();
    }
  });

  test('only an envelope can be verified', () => {
    if (ctx.trust === 'verified') {
      expectTypeOf(ctx).toEqualTypeOf<BuzzEnvelopeContext>();
      expectTypeOf(ctx.deliveryId).toEqualTypeOf<string>();
    }
    if (ctx.trust === 'scraped') expectTypeOf(ctx).toEqualTypeOf<BuzzScrapedContext>();
  });

  test('event ids may be unknown only in general, and everything is read-only', () => {
    expectTypeOf(ctx.events).toExtend<readonly BuzzEvent[]>();
    expectTypeOf<BuzzEvent['id']>().toEqualTypeOf<string | null>();
    expectTypeOf(ctx.diagnostics).toEqualTypeOf<readonly string[]>();
    // @ts-expect-error: contexts are immutable
    ctx.channelId = 'other';
    expectTypeOf(ctx.events).not.toHaveProperty('push');
  });

  test('fields of one source are not on the others without narrowing', () => {
    expectTypeOf<BuzzContext>().not.toHaveProperty('deliveryId');
  });
});

describe('keys', () => {
  test('return strings (threadKey may be null)', () => {
    expectTypeOf(channelKey(ctx)).toEqualTypeOf<string>();
    expectTypeOf(channelKey(ctx, { prefix: 'app' })).toEqualTypeOf<string>();
    expectTypeOf(senderKey(ctx)).toEqualTypeOf<string>();
    expectTypeOf(senderKeys(ctx)).toEqualTypeOf<string[]>();
    expectTypeOf(threadKey(ctx)).toEqualTypeOf<string | null>();
    expectTypeOf(partitionId(ctx, { unit: 'sender' })).toEqualTypeOf<Partition>();
    expectTypeOf(partitionId(ctx, { unit: 'channel' }).id).toEqualTypeOf<string>();
  });

  test('partitionId needs a unit it knows', () => {
    // @ts-expect-error: unit is required
    partitionId(ctx, {});
    // @ts-expect-error: not a partition unit
    partitionId(ctx, { unit: 'thread' });
  });
});

describe('npub helpers', () => {
  test('toNpub returns an npub template literal; isNpub is a type guard', () => {
    expectTypeOf(toNpub('00'.repeat(32))).toEqualTypeOf<`npub1${string}`>();
    expectTypeOf(toHexPubkey).returns.toEqualTypeOf<string>();
    const text: unknown = 'npub1…';
    if (isNpub(text)) expectTypeOf(text).toEqualTypeOf<`npub1${string}`>();
  });
});

describe('verifyBuzzEnvelope', () => {
  test('needs a pinned key and reports failures only when not ok', () => {
    const verification = verifyBuzzEnvelope({}, { agentPubkey: 'npub1x' });
    if (verification.ok) {
      expectTypeOf(verification.failures).toEqualTypeOf<readonly []>();
    } else {
      expectTypeOf(verification.failures[0].code).toEqualTypeOf<BuzzErrorCode>();
    }
    // @ts-expect-error: the pinned agent key is required
    verifyBuzzEnvelope({}, {});
  });
});

describe('BuzzMetaError', () => {
  test('is an Error with a stable code union', () => {
    expectTypeOf<BuzzMetaError>().toExtend<Error>();
    expectTypeOf<BuzzMetaError['code']>().toEqualTypeOf<BuzzErrorCode>();
    expectTypeOf<'invalid_envelope'>().toExtend<BuzzErrorCode>();
    expectTypeOf<'no_such_code'>().not.toExtend<BuzzErrorCode>();
  });

  test('has at least one issue, so the first needs no check, and its sentence as `reason`', () => {
    expectTypeOf<BuzzMetaError['issues']>().toEqualTypeOf<readonly [BuzzIssue, ...BuzzIssue[]]>();
    expectTypeOf<BuzzMetaError['issues'][0]>().toEqualTypeOf<BuzzIssue>();
    expectTypeOf<BuzzMetaError['issues']>().toExtend<readonly BuzzIssue[]>();
    expectTypeOf<BuzzMetaError['reason']>().toEqualTypeOf<string>();
  });
});
