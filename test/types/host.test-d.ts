/**
 * Type-level tests of `buzz-meta/host`: `withBuzzEnvelope` takes whatever params object the caller
 * has (the documented `{ sessionId, prompt }` call, an ACP `PromptRequest`), keeps its type, and
 * refuses a `_meta` that is not an object.
 */
import type { ContentBlock, PromptRequest } from '@agentclientprotocol/sdk';
import { describe, expectTypeOf, test } from 'vitest';
import { type BuildEnvelopeInput, type BuzzEnvelopeV1, withBuzzEnvelope } from '../../src/host.js';

declare const input: BuildEnvelopeInput;
declare const sessionId: string;
declare const prompt: ContentBlock[];
declare const request: PromptRequest;
declare function send(params: PromptRequest): void;

describe('withBuzzEnvelope', () => {
  test('the documented call compiles and keeps the caller’s fields', () => {
    const params = withBuzzEnvelope({ sessionId, prompt }, input);
    expectTypeOf(params.sessionId).toEqualTypeOf<string>();
    expectTypeOf(params.prompt).toEqualTypeOf<ContentBlock[]>();
    expectTypeOf(params._meta.buzz).toEqualTypeOf<BuzzEnvelopeV1>();
    expectTypeOf(params._meta.traceparent).toEqualTypeOf<unknown>();
    send(params);
  });

  test('an ACP PromptRequest goes in and comes out a PromptRequest', () => {
    const params = withBuzzEnvelope(request, input);
    expectTypeOf(params).toExtend<PromptRequest>();
    expectTypeOf(params._meta.buzz.attestation.signature).toEqualTypeOf<string>();
  });

  test('other _meta keys and a null _meta are accepted', () => {
    withBuzzEnvelope({ sessionId, prompt, _meta: { traceparent: '00-…' } }, input);
    withBuzzEnvelope({ sessionId, prompt, _meta: null }, input);
    withBuzzEnvelope({}, input);
  });

  test('a _meta that is not an object does not compile', () => {
    // @ts-expect-error: _meta must be an object or null
    withBuzzEnvelope({ sessionId, _meta: 'x' }, input);
    // @ts-expect-error: the input is required
    withBuzzEnvelope({ sessionId });
  });
});
