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
export { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
export type { PromptTextChannel, PromptTextEvent } from './legacy/render-event.js';
export type { PromptTextContext, PromptTextEra } from './legacy/render-sections.js';
export { renderPromptText, type PromptTextBlock, type PromptTextInput } from './legacy/render.js';

/** The parts of ACP `session/prompt` params this helper touches: `_meta`, when present, is an object or `null`. */
export interface PromptParamsLike {
  /** ACP `_meta`: `{ [key: string]: unknown } | null`, optional. */
  readonly _meta?: Readonly<Record<string, unknown>> | null;
}

/** What {@link withBuzzEnvelope} returns: the caller's params type, with `_meta.buzz` set. */
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
 */
export function withBuzzEnvelope<P extends object>(
  params: P & PromptParamsLike,
  input: BuildEnvelopeInput,
): WithBuzzEnvelope<P> {
  const buzz = buildBuzzEnvelope(input);
  // Host side: `params` is the host's own object, not received input, so copying it is safe.
  return { ...params, _meta: { ...(params._meta ?? {}), buzz } };
}
