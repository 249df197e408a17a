/**
 * `buzz-meta/host`: build signed v1 envelopes the way buzz-acp does, for TypeScript hosts,
 * test doubles and demos. Agents do not need this entry point.
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

/** The parts of ACP `session/prompt` params this helper touches. */
export interface PromptParamsLike {
  /** ACP `_meta`: `{ [key: string]: unknown } | null`, optional. */
  readonly _meta?: Readonly<Record<string, unknown>> | null;
}

/**
 * Returns a copy of `params` whose `_meta.buzz` is a freshly built, signed v1 envelope. Other
 * `_meta` keys (e.g. `traceparent`) are kept; `params` itself is not changed.
 *
 * @example
 * ```ts
 * await ctx.request('session/prompt', withBuzzEnvelope({ sessionId, prompt }, { agentSecretKey, channelId, ownerPubkey, events }))
 * ```
 */
export function withBuzzEnvelope<P extends PromptParamsLike>(
  params: P,
  input: BuildEnvelopeInput,
): P & { _meta: { readonly [key: string]: unknown; buzz: BuzzEnvelopeV1 } } {
  const buzz = buildBuzzEnvelope(input);
  // Host side: `params` is the host's own object, not received input, so copying it is safe.
  return { ...params, _meta: { ...(params._meta ?? {}), buzz } };
}
