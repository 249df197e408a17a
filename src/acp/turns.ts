/**
 * The turns in flight, per ACP session: what `session/cancel` has to reach. A turn holds the
 * dedup claim of its prompt; cancelling it aborts the handler's signal and releases the claim
 * at once, so a retry of the same events is claimable before the cancelled turn even returns.
 */
import type { BuzzClaim } from '../dedup/types.js';

/** One `session/prompt` between its arrival and its answer. */
export class Turn {
  /** Aborted when `session/cancel` arrives for this turn's session. */
  readonly #abort = new AbortController();
  #claim: BuzzClaim | undefined;
  #settled = false;

  /** The signal the user's handler sees (cancel only; the wrapper adds the request's own). */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Whether `session/cancel` (or the request's own abort) arrived. */
  get cancelled(): boolean {
    return this.#abort.signal.aborted;
  }

  /** Takes the claim of this turn; a turn cancelled while claiming releases it at once. */
  async hold(claim: BuzzClaim): Promise<void> {
    this.#claim = claim;
    if (this.cancelled) await this.release();
  }

  /** Cancels the turn: the handler's signal aborts (a second abort is a no-op), the claim is released. */
  async cancel(): Promise<void> {
    this.#abort.abort(new Error('session/cancel'));
    await this.release();
  }

  /** Releases the claim (cancel or failure); later settles are no-ops. */
  async release(): Promise<void> {
    const claim = this.#claim;
    if (claim === undefined || this.#settled) return;
    this.#settled = true;
    await claim.release();
  }

  /** Commits the claim (the turn finished); later settles are no-ops. */
  async commit(): Promise<void> {
    const claim = this.#claim;
    if (claim === undefined || this.#settled) return;
    this.#settled = true;
    await claim.commit();
  }
}

/** Turns in flight by session id. ACP runs one prompt per session at a time; a set tolerates more. */
export class TurnRegistry {
  readonly #bySession = new Map<string, Set<Turn>>();

  /** Registers a new turn of `sessionId`. */
  open(sessionId: string): Turn {
    const turn = new Turn();
    let turns = this.#bySession.get(sessionId);
    if (turns === undefined) {
      turns = new Set();
      this.#bySession.set(sessionId, turns);
    }
    turns.add(turn);
    return turn;
  }

  /** Forgets a turn that was answered. */
  close(sessionId: string, turn: Turn): void {
    const turns = this.#bySession.get(sessionId);
    if (turns === undefined) return;
    turns.delete(turn);
    // Stryker disable next-line ConditionalExpression: an empty set left behind costs memory only; cancel finds no turn in it.
    if (turns.size === 0) this.#bySession.delete(sessionId);
  }

  /**
   * Runs `body` as a turn of `sessionId`: open while it runs (so `session/cancel` reaches it), and
   * cancelled when `signal` (the request's own: connection closed, `$/cancel_request`) aborts first.
   */
  async run<T>(sessionId: string, signal: AbortSignal, body: (turn: Turn) => Promise<T>): Promise<T> {
    const turn = this.open(sessionId);
    const onAbort = () => void turn.cancel().catch(() => undefined);
    signal.addEventListener('abort', onAbort);
    try {
      return await body(turn);
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.close(sessionId, turn);
    }
  }

  /** Cancels every turn in flight of `sessionId`; returns how many there were. */
  async cancel(sessionId: string): Promise<number> {
    const turns = [...(this.#bySession.get(sessionId) ?? [])];
    await Promise.all(turns.map((turn) => turn.cancel()));
    return turns.length;
  }
}
