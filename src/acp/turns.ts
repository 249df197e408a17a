/**
 * The turns in flight, per ACP session: what `session/cancel` has to reach. A turn holds the
 * dedup claim of its prompt; cancelling it aborts the handler's signal and releases the claim
 * at once, so a retry of the same events is claimable before the cancelled turn even returns.
 * A new turn of the session claims only after the session's cancelled turns let go of their
 * claims, so a merged prompt finds the cancelled events free, never still held by their turn.
 */
import type { BuzzClaim } from '../dedup/types.js';

/** One `session/prompt` between its arrival and its answer. */
export class Turn {
  /** Aborted when `session/cancel` arrives for this turn's session. */
  readonly #abort = new AbortController();
  #claim: BuzzClaim | undefined;
  #settled = false;
  #free = false;
  #resolveLetGo!: () => void;
  /** Resolves once this turn holds no claim any more (settled, or ended without one). */
  readonly letGo = new Promise<void>((resolve) => (this.#resolveLetGo = resolve));
  /** Resolves when the turn is cancelled. */
  readonly whenCancelled = new Promise<void>((resolve) => {
    this.#abort.signal.addEventListener(
      'abort',
      () => {
        resolve();
      },
      { once: true },
    );
  });

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
    try {
      await claim.release();
    } finally {
      this.#letGo();
    }
  }

  /** Commits the claim (the turn finished); later settles are no-ops. */
  async commit(): Promise<void> {
    const claim = this.#claim;
    if (claim === undefined || this.#settled) return;
    this.#settled = true;
    try {
      await claim.commit();
    } finally {
      this.#letGo();
    }
  }

  /** Whether the turn holds no claim any more. */
  get free(): boolean {
    return this.#free;
  }

  #letGo(): void {
    this.#free = true;
    this.#resolveLetGo();
  }

  /** The turn was answered: it lets go now, unless a settle is still under way (that settle does). */
  end(): void {
    if (!this.#settled) this.#letGo();
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

  /**
   * Forgets a turn that was answered, once it let go of its claim: a cancelled turn answered
   * while its release is still under way stays where the session's next turn waits for it.
   */
  close(sessionId: string, turn: Turn): void {
    turn.end();
    if (turn.free) this.#forget(sessionId, turn);
    else {
      void turn.letGo.then(() => {
        this.#forget(sessionId, turn);
      });
    }
  }

  #forget(sessionId: string, turn: Turn): void {
    const turns = this.#bySession.get(sessionId);
    if (turns === undefined) return;
    turns.delete(turn);
    if (turns.size === 0) this.#bySession.delete(sessionId);
  }

  /** Resolves once every cancelled turn of `sessionId` opened before `turn` let go of its claim. */
  async cancelledBefore(sessionId: string, turn: Turn): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const other of this.#bySession.get(sessionId) ?? []) {
      if (other === turn) break;
      if (other.cancelled) waits.push(other.letGo);
    }
    await Promise.all(waits);
  }

  /**
   * Runs `body` as a turn of `sessionId`: open while it runs (so `session/cancel` reaches it), and
   * cancelled when `signal` (the request's own: connection closed, `$/cancel_request`; none for a
   * caller that cancels by session) aborts, also when it aborted before the turn opened.
   */
  async run<T>(sessionId: string, signal: AbortSignal | undefined, body: (turn: Turn) => Promise<T>): Promise<T> {
    const turn = this.open(sessionId);
    const onAbort = () => void turn.cancel().catch(() => undefined);
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener('abort', onAbort);
    try {
      return await body(turn);
    } finally {
      signal?.removeEventListener('abort', onAbort);
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
