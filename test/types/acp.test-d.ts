/**
 * `buzz-meta/acp` types: the reader's `minTrust` types the handler's context, and
 * `missing: 'refuse'` removes `undefined` from `buzz`.
 */
import { describe, expectTypeOf, test } from 'vitest';
import { buzzHandlers, type BuzzTurn } from '../../src/acp/index.js';
import {
  type BuzzDraftContext,
  type BuzzEnvelopeContext,
  type BuzzReader,
  type BuzzVerifiedContext,
} from '../../src/index.js';

declare const verified: BuzzReader<BuzzVerifiedContext>;
declare const asserted: BuzzReader<BuzzEnvelopeContext | BuzzDraftContext>;
declare const any: BuzzReader;

describe('buzzHandlers', () => {
  test("a reader with minTrust 'verified' gives the handler a BuzzVerifiedContext", () => {
    buzzHandlers({ reader: verified, missing: 'refuse' }, ({ buzz }) => {
      expectTypeOf(buzz).toEqualTypeOf<BuzzTurn<BuzzVerifiedContext>>();
      expectTypeOf(buzz.context.deliveryId).toBeString();
      return { stopReason: 'end_turn' };
    });
  });

  test("without missing: 'refuse', buzz may be undefined", () => {
    buzzHandlers({ reader: verified }, ({ buzz }) => {
      expectTypeOf(buzz).toEqualTypeOf<BuzzTurn<BuzzVerifiedContext> | undefined>();
      return { stopReason: 'end_turn' };
    });
    buzzHandlers({ reader: any, missing: 'pass' }, ({ buzz }) => {
      expectTypeOf(buzz).toEqualTypeOf<BuzzTurn | undefined>();
      return { stopReason: 'end_turn' };
    });
  });

  test('fresh and seen hold the context’s own event type', () => {
    buzzHandlers({ reader: asserted, missing: 'refuse' }, ({ buzz }) => {
      expectTypeOf(buzz.fresh[0]?.id).toEqualTypeOf<string | undefined>();
      return { stopReason: 'end_turn' };
    });
  });

  test('the handler must answer a PromptResponse', () => {
    // @ts-expect-error -- a stop reason ACP does not know
    buzzHandlers({ reader: any }, () => ({ stopReason: 'done' }));
  });
});
