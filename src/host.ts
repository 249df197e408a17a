/**
 * `buzz-meta/host`: build signed v1 envelopes the way buzz-acp does, for TypeScript hosts,
 * test doubles and demos, and render the prompt text legacy hosts send instead
 * (`renderPromptText`), to test an agent's scraped path. Agents need it only in their tests.
 *
 * @packageDocumentation
 * @module buzz-meta/host
 */
import { buildBuzzEnvelope, type BuildEnvelopeInput, type BuzzEnvelopeV1 } from './envelope/build.js';

export {
  attestBuzzEnvelope,
  buildBuzzEnvelope,
  replyAnchorsOf,
  signEvent,
  type BuildEnvelopeInput,
  type BuzzEnvelopeV1,
  type EventTemplate,
  type NostrEvent,
} from './envelope/build.js';
/**
 * A new random 32-byte secret key (nostr-tools): the agent's key in a test, or a channel member's.
 *
 * @group Host
 * @example
 * ```ts
 * import { generateSecretKey } from 'buzz-meta/host';
 *
 * const agentSecretKey = generateSecretKey(); // the host signs envelopes with it
 * ```
 */
export { generateSecretKey } from 'nostr-tools/pure';
/**
 * The x-only public key of a secret key, as 64 lowercase hex digits (nostr-tools).
 *
 * @group Host
 * @example
 * ```ts
 * import { toNpub } from 'buzz-meta';
 * import { generateSecretKey, getPublicKey } from 'buzz-meta/host';
 *
 * const npub = toNpub(getPublicKey(generateSecretKey())); // what the agent pins
 * ```
 */
export { getPublicKey } from 'nostr-tools/pure';
export type { PromptTextChannel, PromptTextEvent } from './legacy/render-event.js';
export type { PromptTextContext, PromptTextEra } from './legacy/render-sections.js';
export { renderPromptText, type PromptTextBlock, type PromptTextInput } from './legacy/render.js';

/**
 * The parts of ACP `session/prompt` params this helper touches: `_meta`, when present, is an object or `null`.
 *
 * @example
 * ```ts
 * import { withBuzzEnvelope, type PromptParamsLike } from 'buzz-meta/host'
 *
 * // Any params object whose `_meta`, if any, is an object: the SDK's PromptRequest, or a type of your own.
 * const mine: PromptParamsLike & { sessionId: string } = { sessionId, _meta: { traceId: 'abc' } }
 * const sent = withBuzzEnvelope(mine, { agentSecretKey, channelId, ownerPubkey, events }) // traceId kept
 * ```
 * @group Host
 */
export interface PromptParamsLike {
  /** ACP `_meta`: `{ [key: string]: unknown } | null`, optional. */
  readonly _meta?: Readonly<Record<string, unknown>> | null;
}

/**
 * What {@link withBuzzEnvelope} returns: the caller's params type, with `_meta.buzz` set.
 *
 * @example
 * ```ts
 * import { withBuzzEnvelope, type WithBuzzEnvelope } from 'buzz-meta/host'
 *
 * const input = { agentSecretKey, channelId, ownerPubkey, events }
 * const request: WithBuzzEnvelope<PromptRequest> = withBuzzEnvelope<PromptRequest>({ sessionId, prompt }, input)
 * console.error(request._meta.buzz.deliveryId)
 * ```
 * @group Host
 */
export type WithBuzzEnvelope<P extends object> = Omit<P, '_meta'> & {
  readonly _meta: { readonly [key: string]: unknown; readonly buzz: BuzzEnvelopeV1 };
};

/**
 * Returns a copy of `params` whose `_meta.buzz` is a freshly built, signed v1 envelope. Other
 * `_meta` keys (e.g. `traceparent`) are kept; `params` itself is not changed. Generic over the
 * caller's params (an ACP `PromptRequest`, or any object whose `_meta`, if present, is an object
 * or `null`), so the result keeps their type.
 *
 * @example
 * ```ts
 * await agent.request('session/prompt', withBuzzEnvelope({ sessionId, prompt }, { agentSecretKey, channelId, ownerPubkey, events }))
 * ```
 * @group Host
 */
export function withBuzzEnvelope<P extends object>(
  params: P & PromptParamsLike,
  input: BuildEnvelopeInput,
): WithBuzzEnvelope<P> {
  const buzz = buildBuzzEnvelope(input);
  // Host side: `params` is the host's own object, not received input, so copying it is safe.
  return { ...params, _meta: { ...(params._meta ?? {}), buzz } };
}
