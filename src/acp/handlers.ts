/**
 * The `session/prompt` wrapper: read the Buzz context once, enforce the reader's `minTrust`,
 * claim the events through an optional deduper, call the agent's handler with what it needs,
 * and settle the claim the way the turn ended (commit on an answer, release on a throw or a
 * `session/cancel`). The matching `session/cancel` handler is part of the same object, because
 * a claim that a cancel does not release would block the retry until its lease runs out.
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
import type { BuzzContext, BuzzEvent } from '../context.js';
import type { ClaimOptions, Deduper } from '../dedup/types.js';
import { BuzzMetaError, type Result } from '../errors.js';
import { channelKey, senderKey, threadKey } from '../keys.js';
import type { BuzzReader } from '../read/reader.js';
import { claimTurn } from './held.js';
import { type Turn, TurnRegistry } from './turns.js';

/** What the wrapper does with a prompt that carries no Buzz context (`no_buzz_context`). */
export type MissingContextPolicy = 'pass' | 'refuse';

/** Partition keys of a turn, computed once (see `channelKey`, `senderKey`, `threadKey`). */
export interface BuzzTurnKeys {
  /** `buzz:channel:<uuid>`. */
  readonly channel: string;
  /** `buzz:pubkey:<hex>` of the last event's sender; `null` for a delivery without events. */
  readonly sender: string | null;
  /** `buzz:thread:<root id>`, or `null` where the source carries no thread facts. */
  readonly thread: string | null;
}

/** The Buzz facts of one turn, as the agent's handler receives them. */
export interface BuzzTurn<C extends BuzzContext = BuzzContext> {
  /** The context, read once; typed by the reader's `minTrust`. */
  readonly context: C;
  /** Partition keys of the context. */
  readonly keys: BuzzTurnKeys;
  /** Events to act on: all of `context.events` without a deduper, else the ones this turn claimed. */
  readonly fresh: readonly C['events'][number][];
  /** Events already handled or in flight elsewhere (always empty without a deduper). */
  readonly seen: readonly C['events'][number][];
  /**
   * Cancelled events of a Steer/Interrupt merge (`context.cancelledEvents`) this turn took over
   * because their own turn never finished them: act on them too. Without a deduper, all of them.
   * A restart re-prompt (the interrupted turn sent again, no new event) has only these.
   */
  readonly carried: readonly BuzzEvent[];
}

/** What the agent's handler receives: the SDK's request context, plus `buzz`. */
export type BuzzPromptContext<
  C extends BuzzContext,
  M extends MissingContextPolicy,
> = AgentRequestContext<PromptRequest> & {
  /** The Buzz facts; `undefined` only for a prompt without Buzz context under `missing: 'pass'`. */
  readonly buzz: M extends 'refuse' ? BuzzTurn<C> : BuzzTurn<C> | undefined;
};

/** The agent's own prompt handler, called once per turn that has something fresh to do. */
export type BuzzPromptHandler<C extends BuzzContext, M extends MissingContextPolicy> = (
  request: BuzzPromptContext<C, M>,
) => MaybePromise<PromptResponse>;

/** Why the wrapper answered a prompt without calling the handler. */
export type BuzzPromptOutcome =
  | {
      readonly outcome: 'refused';
      readonly code: BuzzMetaError['code'];
      readonly path: string;
      readonly reason: string;
    }
  | { readonly outcome: 'all-seen'; readonly seen: number }
  | { readonly outcome: 'cancelled' }
  /** Events still in flight in another turn after `heldWaitMs`: answered with a `dedup_events_held` error. */
  | { readonly outcome: 'held'; readonly held: number };

/** Options of {@link buzzHandlers}. */
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

/** The two handlers to register on an `agent()` app. */
export interface BuzzHandlers {
  /** Register with `.onRequest(methods.agent.session.prompt, handlers.prompt)`. */
  readonly prompt: AgentRequestHandler<PromptRequest, PromptResponse>;
  /** Register with `.onNotification(methods.agent.session.cancel, handlers.cancel)`. */
  readonly cancel: AgentNotificationHandler<CancelNotification>;
}

const DEFAULT_HELD_WAIT_MS = 2_000;
/** What the race between a handler and a cancel yields when the cancel wins. */
const CANCELLED: unique symbol = Symbol('cancelled');

/** Whether `turn` is cancelled now: a call, so that no narrowing from before an await is trusted. */
function cancelledNow(turn: Turn): boolean {
  return turn.cancelled;
}

/** The error of a prompt whose events another turn still holds: the host's retry finds them settled. */
function eventsHeld(): BuzzMetaError {
  return BuzzMetaError.of(
    'dedup_events_held',
    '',
    'events of this prompt are in flight in another turn that has not settled yet; retry the prompt later',
  );
}

/**
 * The key under which the wrapper's own answers say why (`PromptResponse._meta[BUZZ_OUTCOME_META_KEY]`,
 * a {@link BuzzPromptOutcome}).
 */
export const BUZZ_OUTCOME_META_KEY = 'buzzMeta';

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
 * - events still in flight in another turn after `heldWaitMs`: a JSON-RPC error carrying
 *   `dedup_events_held` (outcome `held` to `onOutcome`), so the host retries the prompt.
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
 */
export function buzzHandlers<C extends BuzzContext, M extends MissingContextPolicy = 'pass'>(
  options: BuzzHandlersOptions<C, M>,
  handler: BuzzPromptHandler<C, M>,
): BuzzHandlers {
  const wrapper = new PromptWrapper(options, handler);
  return {
    prompt: (request) => wrapper.prompt(request),
    cancel: (notification) => wrapper.cancel(notification),
  };
}

/** The state behind one {@link buzzHandlers} pair: its options, resolved once, and the turns in flight. */
class PromptWrapper<C extends BuzzContext, M extends MissingContextPolicy> {
  readonly #reader: BuzzReader<C>;
  readonly #deduper: Deduper | undefined;
  readonly #onOutcome: BuzzHandlersOptions<C, M>['onOutcome'];
  readonly #onCancel: BuzzHandlersOptions<C, M>['onCancel'];
  readonly #handler: BuzzPromptHandler<C, M>;
  readonly #refuseMissing: boolean;
  readonly #keyOptions: { readonly prefix: string } | undefined;
  readonly #heldWaitMs: number;
  readonly #claimOptions: ClaimOptions;
  readonly #turns = new TurnRegistry();

  constructor(options: BuzzHandlersOptions<C, M>, handler: BuzzPromptHandler<C, M>) {
    ({ reader: this.#reader, deduper: this.#deduper, onOutcome: this.#onOutcome, onCancel: this.#onCancel } = options);
    this.#handler = handler;
    this.#refuseMissing = options.missing === 'refuse';
    this.#keyOptions = options.prefix === undefined ? undefined : { prefix: options.prefix };
    const heldWaitMs = options.heldWaitMs ?? DEFAULT_HELD_WAIT_MS;
    if (!Number.isSafeInteger(heldWaitMs) || heldWaitMs < 0) {
      throw BuzzMetaError.of(
        'invalid_option',
        '/heldWaitMs',
        'heldWaitMs must be a non-negative integer number of ms.',
      );
    }
    this.#heldWaitMs = heldWaitMs;
    const namespace = options.dedupNamespace === undefined ? this.#reader.agentPubkey : options.dedupNamespace;
    this.#claimOptions = namespace === null || namespace === undefined ? {} : { namespace };
  }

  /** `session/prompt`: refuses a failed read at once, else runs the turn. */
  async prompt(request: AgentRequestContext<PromptRequest>): Promise<PromptResponse> {
    const { params } = request;
    const read = this.#reader.read(params);
    if (!read.ok) {
      const { code, path, reason } = read.error;
      if (code !== 'no_buzz_context' || this.#refuseMissing) {
        return this.#answer(params, 'refusal', { outcome: 'refused', code, path, reason });
      }
    }
    return this.#turns.run(params.sessionId, request.signal, async (turn) => {
      // A merged prompt claims only once the session's cancelled turns released their events.
      await this.#turns.cancelledBefore(params.sessionId, turn);
      if (cancelledNow(turn)) return this.#answer(params, 'cancelled', { outcome: 'cancelled' });
      if (!read.ok) return this.#call(request, turn, undefined);
      const started = await this.#start(params, read.context, turn);
      return started.ok ? this.#call(request, turn, started.value) : started.error;
    });
  }

  /** `session/cancel`: cancels the session's turns, then hands over to the agent's own `onCancel`. */
  async cancel(notification: Parameters<AgentNotificationHandler<CancelNotification>>[0]): Promise<void> {
    await this.#turns.cancel(notification.params.sessionId);
    await this.#onCancel?.(notification);
  }

  /** Answers the prompt itself, telling `onOutcome` and the host why. */
  #answer(params: PromptRequest, stopReason: PromptResponse['stopReason'], outcome: BuzzPromptOutcome): PromptResponse {
    this.#onOutcome?.(outcome, params);
    return { stopReason, _meta: { [BUZZ_OUTCOME_META_KEY]: outcome } };
  }

  /**
   * The turn's Buzz facts, its events claimed through the deduper (when there is one), or the
   * answer the wrapper gives instead: cancelled meanwhile, or nothing left to do.
   * @throws BuzzMetaError `dedup_events_held` when another turn still holds events of this one.
   */
  async #start(params: PromptRequest, context: C, turn: Turn): Promise<Result<BuzzTurn<C>, PromptResponse>> {
    let fresh: readonly C['events'][number][] = context.events;
    let seen: readonly C['events'][number][] = [];
    let carried: readonly BuzzEvent[] = context.cancelledEvents;
    const deduper = this.#deduper;
    if (deduper !== undefined) {
      const claimed = await claimTurn(deduper, context, {
        claim: this.#claimOptions,
        waitMs: this.#heldWaitMs,
        signal: turn.signal,
      });
      await turn.hold(claimed.claim);
      if (cancelledNow(turn)) return { ok: false, error: this.#answer(params, 'cancelled', { outcome: 'cancelled' }) };
      if (claimed.held > 0) {
        // Success would tell the host these events are done while nobody has handled them.
        await turn.release();
        this.#onOutcome?.({ outcome: 'held', held: claimed.held }, params);
        throw eventsHeld();
      }
      ({ fresh, seen, carried } = claimed);
    }
    const leftToOthers = eventsLeftToOthers(context, fresh, seen, carried);
    if (leftToOthers > 0) {
      await turn.release();
      return { ok: false, error: this.#answer(params, 'end_turn', { outcome: 'all-seen', seen: leftToOthers }) };
    }
    return { ok: true, value: { context, keys: this.#keysOf(context), fresh, seen, carried } };
  }

  /**
   * Calls the agent's handler and settles the turn's claim the way the turn ended: committed on an
   * answer, released on a throw, a cancel, or the handler's own `cancelled`.
   */
  async #call(
    request: AgentRequestContext<PromptRequest>,
    turn: Turn,
    buzz: BuzzTurn<C> | undefined,
  ): Promise<PromptResponse> {
    const { params } = request;
    const signal = AbortSignal.any([request.signal, turn.signal]);
    let response: PromptResponse | typeof CANCELLED;
    try {
      const work = Promise.resolve(
        this.#handler({
          method: request.method,
          params,
          signal,
          client: request.client,
          requestId: request.requestId,
          buzz: buzz as BuzzPromptContext<C, M>['buzz'],
        }),
      );
      // A handler that never settles is still answered `cancelled` at once; what it returns later is ignored.
      work.catch(() => undefined);
      response = await Promise.race([work, turn.whenCancelled.then((): typeof CANCELLED => CANCELLED)]);
    } catch (error) {
      await turn.release();
      // A handler that stops on the abort signal throws: that is the cancellation, not a failure.
      if (cancelledNow(turn)) return this.#answer(params, 'cancelled', { outcome: 'cancelled' });
      throw error;
    }
    if (response === CANCELLED || cancelledNow(turn)) {
      await turn.release();
      return this.#answer(params, 'cancelled', { outcome: 'cancelled' });
    }
    // A handler that says it was cancelled did not finish its events: they stay to be handled.
    if (response.stopReason === 'cancelled') {
      await turn.release();
      return response;
    }
    await turn.commit();
    return response;
  }

  #keysOf(context: C): BuzzTurnKeys {
    const keyOptions = this.#keyOptions;
    return {
      channel: channelKey(context, keyOptions),
      sender: context.events.length === 0 ? null : senderKey(context, keyOptions),
      thread: threadKey(context, keyOptions),
    };
  }
}

/**
 * How many events a turn with nothing to act on leaves to others (0 when it has work, or names no
 * events): the delivery's seen events, and its cancelled ones handled elsewhere. A restart
 * re-prompt carries only cancelled events, so once their own turn finished them it has no work.
 */
function eventsLeftToOthers(
  context: BuzzContext,
  fresh: readonly BuzzEvent[],
  seen: readonly BuzzEvent[],
  carried: readonly BuzzEvent[],
): number {
  if (fresh.length > 0 || carried.length > 0) return 0;
  return seen.length + context.cancelledEvents.length;
}
