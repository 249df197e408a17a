/**
 * `buzzHandlers`: the SDK face of the turn runner (turn-runner.ts). The `session/prompt` handler
 * runs each prompt as a turn whose work is the agent's own handler; the matching `session/cancel`
 * handler is part of the same object, because a claim that a cancel does not release would block
 * the retry until its lease runs out.
 */
import type {
  AgentNotificationHandler,
  AgentRequestContext,
  AgentRequestHandler,
  CancelNotification,
  MaybePromise,
  PromptRequest,
  PromptResponse,
} from '@agentclientprotocol/sdk';
import type { BuzzContext } from '../context.js';
import type { Deduper } from '../dedup/types.js';
import type { BuzzReader } from '../read/reader.js';
import { acpSdk } from './sdk.js';
import {
  type BuzzPromptOutcome,
  type BuzzTurn,
  BuzzTurnError,
  type MissingContextPolicy,
  TURN_ERROR_CODE,
  TurnRunner,
} from './turn-runner.js';

export { BUZZ_OUTCOME_META_KEY } from './turn-runner.js';
export type {
  BuzzPromptOutcome,
  BuzzTurn,
  BuzzTurnErrorData,
  BuzzTurnKeys,
  MissingContextPolicy,
} from './turn-runner.js';

/**
 * What the agent's handler receives: the SDK's request context, plus `buzz`.
 *
 * @example
 * ```ts
 * import type { BuzzVerifiedContext } from 'buzz-meta'
 * import type { BuzzPromptContext } from 'buzz-meta/acp'
 *
 * // A handler written apart from its buzzHandlers() call: under missing: 'refuse', `buzz` is always set.
 * function senderOf({ buzz }: BuzzPromptContext<BuzzVerifiedContext, 'refuse'>): string {
 *   return buzz.keys.sender ?? buzz.keys.channel
 * }
 * ```
 * @group ACP
 */
export type BuzzPromptContext<
  C extends BuzzContext,
  M extends MissingContextPolicy,
> = AgentRequestContext<PromptRequest> & {
  /** The Buzz facts; `undefined` only for a prompt without Buzz context under `missing: 'pass'`. */
  readonly buzz: M extends 'refuse' ? BuzzTurn<C> : BuzzTurn<C> | undefined;
};

/**
 * The agent's own prompt handler, called once per turn that has something fresh to do.
 *
 * @example
 * ```ts
 * import type { BuzzPromptHandler } from 'buzz-meta/acp'
 *
 * // missing: 'pass' (the default): `buzz` is undefined for a prompt that carries no Buzz context.
 * const handler: BuzzPromptHandler<BuzzContext, 'pass'> = ({ buzz }) => {
 *   console.error(buzz === undefined ? 'not from Buzz' : buzz.context.trust)
 *   return { stopReason: 'end_turn' }
 * }
 * ```
 * @group ACP
 */
export type BuzzPromptHandler<C extends BuzzContext, M extends MissingContextPolicy> = (
  request: BuzzPromptContext<C, M>,
) => MaybePromise<PromptResponse>;

/**
 * Options of {@link buzzHandlers}.
 *
 * @example
 * ```ts
 * import { createBuzzReader, createDeduper, type BuzzVerifiedContext } from 'buzz-meta'
 * import { buzzHandlers, type BuzzHandlersOptions } from 'buzz-meta/acp'
 *
 * const options: BuzzHandlersOptions<BuzzVerifiedContext, 'refuse'> = {
 *   reader: await createBuzzReader({ agentPubkey, minTrust: 'verified' }),
 *   deduper: createDeduper(),
 *   missing: 'refuse',
 *   onOutcome: (outcome) => console.error(outcome.outcome), // stderr: stdout is the protocol
 * }
 * const buzz = buzzHandlers(options, ({ buzz }) => ({ stopReason: buzz.fresh.length > 0 ? 'end_turn' : 'refusal' }))
 * ```
 * @group ACP
 */
export interface BuzzHandlersOptions<C extends BuzzContext, M extends MissingContextPolicy> {
  /** Reads every prompt once; its `minTrust` and `agentPubkey` are the policy (see `createBuzzReader`). */
  readonly reader: BuzzReader<C>;
  /** Claims each event so it is handled once; without it every event is fresh. */
  readonly deduper?: Deduper;
  /** `'pass'` (default): a prompt without Buzz context reaches the handler with `buzz` undefined; `'refuse'`: it is refused. */
  readonly missing?: M;
  /** Prefix of the partition keys (default `buzz`). */
  readonly prefix?: string;
  /** Called for each prompt answered by the wrapper itself (refused, all seen, cancelled), e.g. to log to stderr. */
  readonly onOutcome?: (outcome: BuzzPromptOutcome, params: PromptRequest) => void;
  /** Called after the wrapper cancelled the session's turn, for the agent's own cancel work. */
  readonly onCancel?: AgentNotificationHandler<CancelNotification>;
  /**
   * How long a prompt whose events are in flight in another turn waits for that turn to settle,
   * in ms, before it is answered with a `dedup_events_held` error (the host retries); default 2 000.
   */
  readonly heldWaitMs?: number;
  /**
   * The dedup namespace (see `ClaimOptions.namespace`): default the reader's pinned agent key
   * (hex), so agents sharing one store never suppress each other's events; `null` for none (the
   * key layout before namespaces), or a string of your own.
   */
  readonly dedupNamespace?: string | null;
}

/**
 * The two handlers to register on an `agent()` app.
 *
 * @example
 * ```ts
 * import { agent, methods } from '@agentclientprotocol/sdk'
 * import { createBuzzReader } from 'buzz-meta'
 * import { buzzHandlers, type BuzzHandlers } from 'buzz-meta/acp'
 *
 * const reader = await createBuzzReader({ agentPubkey })
 * const handlers: BuzzHandlers = buzzHandlers({ reader }, () => ({ stopReason: 'end_turn' }))
 * agent({ name: 'my-agent' })
 *   .onRequest(methods.agent.session.prompt, handlers.prompt)
 *   .onNotification(methods.agent.session.cancel, handlers.cancel)
 * ```
 * @group ACP
 */
export interface BuzzHandlers {
  /** Register with `.onRequest(methods.agent.session.prompt, handlers.prompt)`. */
  readonly prompt: AgentRequestHandler<PromptRequest, PromptResponse>;
  /** Register with `.onNotification(methods.agent.session.cancel, handlers.cancel)`. */
  readonly cancel: AgentNotificationHandler<CancelNotification>;
}

/**
 * Wraps an agent's `session/prompt` handler with Buzz context, trust policy, dedup and cancel.
 *
 * Answers the wrapper gives itself (the handler is not called):
 * - a read that fails (tampered, too weak for `minTrust`, malformed): `stopReason: 'refusal'`;
 * - no Buzz context under `missing: 'refuse'`: `stopReason: 'refusal'` with code `no_buzz_context`;
 * - every event already handled, and nothing carried over from a cancelled turn (a redelivery, or
 *   a restart re-prompt whose interrupted turn finished its events): `stopReason: 'end_turn'`,
 *   outcome `all-seen`;
 * - `session/cancel` before the handler started: `stopReason: 'cancelled'`;
 * - events still in flight in another turn after `heldWaitMs`, or a dedup store that failed under
 *   `onStoreError: 'fail-closed'`: a JSON-RPC error `-32603` whose `data` is a {@link BuzzTurnErrorData}
 *   (`code` `dedup_events_held` or `dedup_store_unavailable`, outcome `held` or `dedup-unavailable`,
 *   also to `onOutcome`), so the host retries the prompt.
 *
 * Each answer carries a {@link BuzzPromptOutcome} in `_meta.buzzMeta`. A turn cancelled while the
 * handler runs is answered `cancelled` at once, as ACP asks; what the handler returns or throws
 * after that is ignored, and its claim is released. A handler that answers `cancelled` itself
 * has its claim released too.
 *
 * @example
 * ```ts
 * import { agent, methods } from '@agentclientprotocol/sdk'
 * import { createBuzzReader } from 'buzz-meta'
 * import { buzzHandlers } from 'buzz-meta/acp'
 *
 * const reader = await createBuzzReader({ agentPubkey: 'npub1…', minTrust: 'verified' })
 * const buzz = buzzHandlers({ reader, missing: 'refuse' }, ({ buzz }) => {
 *   console.error(buzz.keys.sender, buzz.context.deliveryId) // a BuzzVerifiedContext
 *   return { stopReason: 'end_turn' }
 * })
 * agent({ name: 'my-agent' })
 *   .onRequest(methods.agent.session.prompt, buzz.prompt)
 *   .onNotification(methods.agent.session.cancel, buzz.cancel)
 * ```
 * @group ACP
 */
export function buzzHandlers<C extends BuzzContext, M extends MissingContextPolicy = 'pass'>(
  options: BuzzHandlersOptions<C, M>,
  handler: BuzzPromptHandler<C, M>,
): BuzzHandlers {
  const runner = new TurnRunner<C>(options);
  const onCancel = options.onCancel;
  return {
    prompt: (request) =>
      runner
        .prompt(request.params, request.signal, (buzz, signal) =>
          handler({
            method: request.method,
            params: request.params,
            signal,
            client: request.client,
            requestId: request.requestId,
            buzz: buzz as BuzzPromptContext<C, M>['buzz'],
          }),
        )
        .catch((error: unknown) => {
          // The SDK writes a RequestError as it is; anything else becomes `Internal error` without the code.
          if (error instanceof BuzzTurnError) {
            throw new (acpSdk().RequestError)(TURN_ERROR_CODE, 'Internal error', error.data);
          }
          throw error;
        }),
    cancel: async (notification) => {
      await runner.cancel(notification.params.sessionId);
      await onCancel?.(notification);
    },
  };
}
