/**
 * One prompt turn, whoever does the work: read the Buzz context once, enforce the reader's
 * `minTrust` and the missing-context policy, claim the events through an optional deduper, run
 * the work, and settle the claim the way the turn ended (commit on an answer, release on a
 * failure or a `session/cancel`). `buzzHandlers` (the SDK wrapper) runs the agent's handler as the
 * work; `buzz-meta proxy` runs "forward the prompt to the agent and await its answer". Nothing
 * here loads the ACP SDK: its types only.
 */
import type { MaybePromise, PromptRequest, PromptResponse } from '@agentclientprotocol/sdk';
import type { BuzzContext, BuzzEvent } from '../context.js';
import type { ClaimOptions, Deduper } from '../dedup/types.js';
import { type BuzzErrorCode, BuzzMetaError, type Result } from '../errors.js';
import { channelKey, senderKey, threadKey } from '../keys.js';
import type { BuzzReader } from '../read/reader.js';
import { claimTurn } from './held.js';
import { type Turn, TurnRegistry } from './turns.js';

/**
 * What the wrapper does with a prompt that carries no Buzz context (`no_buzz_context`).
 *
 * @example
 * ```ts
 * import type { MissingContextPolicy } from 'buzz-meta/acp'
 *
 * // 'refuse' for an agent only Buzz talks to; 'pass' when other ACP clients prompt it too.
 * const missing: MissingContextPolicy = process.env.BUZZ_ONLY === '1' ? 'refuse' : 'pass'
 * ```
 * @group ACP
 */
export type MissingContextPolicy = 'pass' | 'refuse';

/**
 * Partition keys of a turn, computed once (see `channelKey`, `senderKey`, `threadKey`).
 *
 * @example
 * ```ts
 * import type { BuzzTurnKeys } from 'buzz-meta/acp'
 *
 * const rateLimitKey = (keys: BuzzTurnKeys): string => keys.sender ?? keys.channel // per person, else per channel
 * ```
 * @group ACP
 */
export interface BuzzTurnKeys {
  /** `buzz:channel:<uuid>`. */
  readonly channel: string;
  /** `buzz:pubkey:<hex>` of the last event's sender; `null` for a delivery without events. */
  readonly sender: string | null;
  /** `buzz:thread:<root id>`, or `null` where the source carries no thread facts. */
  readonly thread: string | null;
}

/**
 * The Buzz facts of one turn, as the agent's handler receives them.
 *
 * @example
 * ```ts
 * import type { BuzzTurn } from 'buzz-meta/acp'
 *
 * function remember(turn: BuzzTurn): void {
 *   if (turn.dedupBypassed !== null) console.error(`dedup store down: ${turn.dedupBypassed.code}`) // may repeat
 *   memory.partition(turn.keys.sender ?? turn.keys.channel)
 *   console.error(`${String(turn.fresh.length)} new, ${String(turn.seen.length)} already handled`)
 * }
 * ```
 * @group ACP
 */
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
  /**
   * Set when dedup was bypassed: the store failed and the deduper, under `onStoreError: 'fail-open'`,
   * let every event through as `fresh` (the `dedup_store_unavailable` error it reported; the store's
   * own error is its `cause`). Some of them may be handled elsewhere too: at-least-once, as without
   * a deduper. `null` when the store answered, and without a deduper.
   */
  readonly dedupBypassed: BuzzMetaError | null;
}

/**
 * Why the wrapper answered a prompt without calling the handler.
 *
 * @example
 * ```ts
 * import { createBuzzReader } from 'buzz-meta'
 * import { buzzHandlers, type BuzzPromptOutcome } from 'buzz-meta/acp'
 *
 * const log = (outcome: BuzzPromptOutcome): void => {
 *   if (outcome.outcome === 'refused') console.error(`refused: ${outcome.code} at ${outcome.path}`)
 * }
 * const reader = await createBuzzReader({ agentPubkey })
 * const buzz = buzzHandlers({ reader, onOutcome: log }, () => ({ stopReason: 'end_turn' }))
 * ```
 * @group ACP
 */
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
  | { readonly outcome: 'held'; readonly held: number }
  /** The dedup store failed under `onStoreError: 'fail-closed'`: answered with a `dedup_store_unavailable` error. */
  | { readonly outcome: 'dedup-unavailable' };

/**
 * The key under which the wrapper's own answers say why (`PromptResponse._meta[BUZZ_OUTCOME_META_KEY]`,
 * a {@link BuzzPromptOutcome}).
 *
 * @example
 * ```ts
 * import { methods } from '@agentclientprotocol/sdk'
 * import { BUZZ_OUTCOME_META_KEY, type BuzzPromptOutcome } from 'buzz-meta/acp'
 *
 * // Host side: why the wrapper answered a prompt itself (refused, all seen, cancelled).
 * const answer = await agent.request(methods.agent.session.prompt, params)
 * const outcome = answer._meta?.[BUZZ_OUTCOME_META_KEY] as BuzzPromptOutcome | undefined
 * ```
 * @group ACP
 */
export const BUZZ_OUTCOME_META_KEY = 'buzzMeta';

/**
 * The `data` of the JSON-RPC error (`-32603`, `Internal error`) a prompt is answered with when the
 * wrapper cannot answer it yet: its events are held by another turn, or the dedup store failed
 * under fail-closed. The host should retry the prompt later (Buzz does).
 *
 * @example
 * ```ts
 * import { methods } from '@agentclientprotocol/sdk'
 * import type { BuzzTurnErrorData } from 'buzz-meta/acp'
 *
 * // Host side: a prompt answered with a JSON-RPC error (-32603) whose data names why; retry those later.
 * try {
 *   await agent.request(methods.agent.session.prompt, params)
 * } catch (error) {
 *   const data = (error as { data?: BuzzTurnErrorData }).data
 *   if (data?.code === 'dedup_events_held' || data?.code === 'dedup_store_unavailable') console.error('retry')
 * }
 * ```
 * @group ACP
 */
export interface BuzzTurnErrorData {
  /** What happened, in a sentence (the field the SDK's own internal errors carry). */
  readonly details: string;
  /** The stable code: `dedup_events_held` or `dedup_store_unavailable`. */
  readonly code: BuzzErrorCode;
  /** The outcome (`held` or `dedup-unavailable`), as `_meta.buzzMeta` of the wrapper's answers says it. */
  readonly buzzMeta: BuzzPromptOutcome;
}

/** The JSON-RPC error code of a {@link BuzzTurnError}: internal error. */
export const TURN_ERROR_CODE = -32603;

/** A turn that ends in a JSON-RPC error: each face (the SDK wrapper, the proxy) writes it with {@link BuzzTurnErrorData}. */
export class BuzzTurnError extends Error {
  /** Always `'BuzzTurnError'`. */
  override readonly name = 'BuzzTurnError';
  /** The error's `data`. */
  readonly data: BuzzTurnErrorData;

  constructor(error: BuzzMetaError, outcome: BuzzPromptOutcome) {
    super(error.message, { cause: error });
    this.data = { details: error.message, code: error.code, [BUZZ_OUTCOME_META_KEY]: outcome };
  }
}

/** The policy of a {@link TurnRunner}: the part of `BuzzHandlersOptions` that is not about the SDK. */
interface TurnPolicy<C extends BuzzContext> {
  readonly reader: BuzzReader<C>;
  readonly deduper?: Deduper | undefined;
  readonly missing?: MissingContextPolicy | undefined;
  readonly prefix?: string | undefined;
  readonly onOutcome?: ((outcome: BuzzPromptOutcome, params: PromptRequest) => void) | undefined;
  readonly heldWaitMs?: number | undefined;
  readonly dedupNamespace?: string | null | undefined;
}

/**
 * How a turn cancelled while its work runs is answered:
 * - `'at-once'`: `cancelled`, as soon as the cancel arrives; what the work returns or throws later
 *   is ignored (the SDK wrapper: the handler runs in this process and ACP wants the answer now);
 * - `'by-work'`: with what the work answers or throws once it ends (the proxy: the agent itself
 *   answers its cancelled prompt, and its last `session/update`s must reach the host before that).
 * Either way the claim is released when the cancel arrives.
 */
type CancelAnswer = 'at-once' | 'by-work';

/** The work of a turn: the handler's call, or the prompt forwarded to the agent. */
type TurnWork<C extends BuzzContext> = (
  buzz: BuzzTurn<C> | undefined,
  signal: AbortSignal,
) => MaybePromise<PromptResponse>;

const DEFAULT_HELD_WAIT_MS = 2_000;
/** What the race between the work and a cancel yields when the cancel wins. */
const CANCELLED: unique symbol = Symbol('cancelled');

/** Whether `turn` is cancelled now: a call, so that no narrowing from before an await is trusted. */
function cancelledNow(turn: Turn): boolean {
  return turn.cancelled;
}

/** The error of a prompt whose events another turn still holds: the host's retry finds them settled. */
function eventsHeld(held: number): BuzzTurnError {
  const error = BuzzMetaError.of(
    'dedup_events_held',
    '',
    'events of this prompt are in flight in another turn that has not settled yet; retry the prompt later',
  );
  return new BuzzTurnError(error, { outcome: 'held', held });
}

/** The turns of one connection: its policy, resolved once, and the turns in flight per session. */
export class TurnRunner<C extends BuzzContext> {
  readonly #reader: BuzzReader<C>;
  readonly #deduper: Deduper | undefined;
  readonly #onOutcome: TurnPolicy<C>['onOutcome'];
  readonly #refuseMissing: boolean;
  readonly #keyOptions: { readonly prefix: string } | undefined;
  readonly #heldWaitMs: number;
  readonly #claimOptions: ClaimOptions;
  readonly #cancelAnswer: CancelAnswer;
  readonly #turns = new TurnRegistry();

  /** @throws BuzzMetaError `invalid_option` for a bad `heldWaitMs`. */
  constructor(policy: TurnPolicy<C>, cancelAnswer: CancelAnswer = 'at-once') {
    ({ reader: this.#reader, deduper: this.#deduper, onOutcome: this.#onOutcome } = policy);
    this.#refuseMissing = policy.missing === 'refuse';
    this.#keyOptions = policy.prefix === undefined ? undefined : { prefix: policy.prefix };
    this.#cancelAnswer = cancelAnswer;
    const heldWaitMs = policy.heldWaitMs ?? DEFAULT_HELD_WAIT_MS;
    if (!Number.isSafeInteger(heldWaitMs) || heldWaitMs < 0) {
      throw BuzzMetaError.of(
        'invalid_option',
        '/heldWaitMs',
        'heldWaitMs must be a non-negative integer number of ms.',
      );
    }
    this.#heldWaitMs = heldWaitMs;
    const namespace = policy.dedupNamespace === undefined ? this.#reader.agentPubkey : policy.dedupNamespace;
    this.#claimOptions = namespace === null || namespace === undefined ? {} : { namespace };
  }

  /**
   * `session/prompt`: refuses a failed read at once, else runs the turn of `params.sessionId`
   * with `work`. `signal` is the request's own (connection closed, `$/cancel_request`), if it has
   * one; without it only {@link TurnRunner.cancel} cancels the turn.
   * @throws BuzzTurnError when another turn still holds events of this one (`dedup_events_held`), or
   * the dedup store failed under fail-closed (`dedup_store_unavailable`); what `work` throws, as it is.
   */
  async prompt(params: PromptRequest, signal: AbortSignal | undefined, work: TurnWork<C>): Promise<PromptResponse> {
    const read = this.#reader.read(params);
    if (!read.ok) {
      const { code, path, reason } = read.error;
      if (code !== 'no_buzz_context' || this.#refuseMissing) {
        return this.#answer(params, 'refusal', { outcome: 'refused', code, path, reason });
      }
    }
    return this.#turns.run(params.sessionId, signal, async (turn) => {
      // A merged prompt claims only once the session's cancelled turns released their events.
      await this.#turns.cancelledBefore(params.sessionId, turn);
      if (cancelledNow(turn)) return this.#answer(params, 'cancelled', { outcome: 'cancelled' });
      if (!read.ok) return this.#call(params, signal, turn, undefined, work);
      const started = await this.#start(params, read.context, turn);
      return started.ok ? this.#call(params, signal, turn, started.value, work) : started.error;
    });
  }

  /** `session/cancel`: cancels the session's turns in flight (their claims are released). */
  async cancel(sessionId: string): Promise<void> {
    await this.#turns.cancel(sessionId);
  }

  /** Answers the prompt itself, telling `onOutcome` and the host why. */
  #answer(params: PromptRequest, stopReason: PromptResponse['stopReason'], outcome: BuzzPromptOutcome): PromptResponse {
    this.#onOutcome?.(outcome, params);
    return { stopReason, _meta: { [BUZZ_OUTCOME_META_KEY]: outcome } };
  }

  /**
   * The turn's Buzz facts, its events claimed through the deduper (when there is one), or the
   * answer the wrapper gives instead: cancelled meanwhile, or nothing left to do.
   */
  async #start(params: PromptRequest, context: C, turn: Turn): Promise<Result<BuzzTurn<C>, PromptResponse>> {
    let fresh: readonly C['events'][number][] = context.events;
    let seen: readonly C['events'][number][] = [];
    let carried: readonly BuzzEvent[] = context.cancelledEvents;
    const deduper = this.#deduper;
    let dedupBypassed: BuzzMetaError | null = null;
    if (deduper !== undefined) {
      const claimed = await this.#store(
        params,
        claimTurn(deduper, context, { claim: this.#claimOptions, waitMs: this.#heldWaitMs, signal: turn.signal }),
      );
      await this.#store(params, turn.hold(claimed.claim));
      if (cancelledNow(turn)) return { ok: false, error: this.#answer(params, 'cancelled', { outcome: 'cancelled' }) };
      if (claimed.held > 0) {
        // Success would tell the host these events are done while nobody has handled them.
        await this.#store(params, turn.release());
        const error = eventsHeld(claimed.held);
        this.#onOutcome?.(error.data.buzzMeta, params);
        throw error;
      }
      ({ fresh, seen, carried } = claimed);
      dedupBypassed = claimed.storeError ?? null;
    }
    const leftToOthers = eventsLeftToOthers(context, fresh, seen, carried);
    if (leftToOthers > 0) {
      await this.#store(params, turn.release());
      return { ok: false, error: this.#answer(params, 'end_turn', { outcome: 'all-seen', seen: leftToOthers }) };
    }
    return { ok: true, value: { context, keys: this.#keysOf(context), fresh, seen, carried, dedupBypassed } };
  }

  /**
   * Awaits a store step of the turn (a claim, commit or release): a store that failed under
   * fail-closed (`dedup_store_unavailable`) ends the turn with its JSON-RPC error.
   */
  async #store<T>(params: PromptRequest, step: Promise<T>): Promise<T> {
    try {
      return await step;
    } catch (error) {
      if (!(error instanceof BuzzMetaError) || error.code !== 'dedup_store_unavailable') throw error;
      const failed = new BuzzTurnError(error, { outcome: 'dedup-unavailable' });
      this.#onOutcome?.(failed.data.buzzMeta, params);
      throw failed;
    }
  }

  /**
   * Runs the work and settles the turn's claim the way the turn ended: committed on an answer,
   * released on a throw, a cancel, or the work's own `cancelled`.
   */
  async #call(
    params: PromptRequest,
    requestSignal: AbortSignal | undefined,
    turn: Turn,
    buzz: BuzzTurn<C> | undefined,
    work: TurnWork<C>,
  ): Promise<PromptResponse> {
    const signal = requestSignal === undefined ? turn.signal : AbortSignal.any([requestSignal, turn.signal]);
    const atOnce = this.#cancelAnswer === 'at-once';
    let response: PromptResponse | typeof CANCELLED;
    try {
      const running = Promise.resolve(work(buzz, signal));
      if (atOnce) {
        // Work that never settles is still answered `cancelled` at once; what it returns later is ignored.
        running.catch(() => undefined);
        response = await Promise.race([running, turn.whenCancelled.then((): typeof CANCELLED => CANCELLED)]);
      } else {
        response = await running;
      }
    } catch (error) {
      await this.#store(params, turn.release());
      // A handler that stops on the abort signal throws: that is the cancellation, not a failure.
      if (atOnce && cancelledNow(turn)) return this.#answer(params, 'cancelled', { outcome: 'cancelled' });
      throw error;
    }
    if (response === CANCELLED || cancelledNow(turn)) {
      await this.#store(params, turn.release());
      return atOnce || response === CANCELLED ? this.#answer(params, 'cancelled', { outcome: 'cancelled' }) : response;
    }
    // Work that says it was cancelled did not finish its events: they stay to be handled.
    if (response.stopReason === 'cancelled') {
      await this.#store(params, turn.release());
      return response;
    }
    await this.#store(params, turn.commit());
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
