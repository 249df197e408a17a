/**
 * The agent's answer to each prompt of a capture: the response with the prompt's JSON-RPC id.
 * Both peers of an ACP connection number their own requests, so an id can be pending in both
 * directions at once (a `session/prompt` and the agent's `session/request_permission`); a response
 * then goes to the prompt only when it looks like a prompt's answer (a result with `stopReason`).
 * Everything read from the response is untrusted text: only strings and numbers are taken, and
 * only the fields named here.
 */
import type { FoundResponse } from './input.js';

/** What the agent answered to one prompt. */
export interface AnswerReport {
  /** 1-based line of the response. */
  readonly line: number;
  /** `result.stopReason`, or `null` for an error response (or a result without one). */
  readonly stopReason: string | null;
  /**
   * Why the wrapper answered instead of the handler (`_meta.buzzMeta.outcome` of a result, or
   * `data.buzzMeta.outcome` of an error): `refused`, `all-seen`, `cancelled`, `held`; `null` when
   * the answer says nothing of it (the agent's own handler answered, or no buzz-meta wrapper ran).
   */
  readonly outcome: string | null;
  /** The buzz-meta error code (`_meta.buzzMeta.code` of a refusal, `data.code` of an error), or `null`. */
  readonly code: string | null;
  /** The JSON-RPC error of an error response, `null` for a result. */
  readonly error: { readonly code: number | null; readonly message: string } | null;
}

/** The longest received string kept in a report (a stop reason, an error message). */
const MAX_TEXT = 200;

function field(value: unknown, key: string): unknown {
  return value instanceof Object && !Array.isArray(value) && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value.slice(0, MAX_TEXT) : null;
}

/** The answer a response gives, as reported. */
export function answerReport(response: FoundResponse): AnswerReport {
  const { line, body } = response;
  if (response.isResult) {
    const outcome = field(field(body, '_meta'), 'buzzMeta');
    return {
      line,
      stopReason: text(field(body, 'stopReason')),
      outcome: text(field(outcome, 'outcome')),
      code: text(field(outcome, 'code')),
      error: null,
    };
  }
  const data = field(body, 'data');
  const code = field(body, 'code');
  return {
    line,
    stopReason: null,
    outcome: text(field(field(data, 'buzzMeta'), 'outcome')),
    code: text(field(data, 'code')),
    error: { code: typeof code === 'number' ? code : null, message: text(field(body, 'message')) ?? '' },
  };
}

/** A JSON-RPC id as a map key: `1` and `"1"` are different ids. */
function keyOf(id: string | number): string {
  return typeof id === 'number' ? `n${String(id)}` : `s${id}`;
}

/**
 * Prompts waiting for their answer, and the other requests pending under each id. `T` is what the
 * caller keeps per prompt (its report slot).
 */
export class PendingAnswers<T> {
  readonly #prompts = new Map<string, T[]>();
  readonly #others = new Map<string, number>();

  /** A prompt with `id` was sent. */
  addPrompt(id: string | number, slot: T): void {
    const key = keyOf(id);
    const waiting = this.#prompts.get(key);
    if (waiting === undefined) this.#prompts.set(key, [slot]);
    else waiting.push(slot);
  }

  /** A request of another method with `id` was sent (by either peer). */
  addOther(id: string | number): void {
    const key = keyOf(id);
    this.#others.set(key, (this.#others.get(key) ?? 0) + 1);
  }

  /** The prompt `response` answers (and it stops waiting), or `undefined` when it answers another request. */
  answer(response: FoundResponse): T | undefined {
    const key = keyOf(response.id);
    const waiting = this.#prompts.get(key);
    const others = this.#others.get(key) ?? 0;
    const toPrompt =
      waiting !== undefined &&
      (others === 0 || (response.isResult && field(response.body, 'stopReason') !== undefined));
    if (!toPrompt) {
      if (others > 1) this.#others.set(key, others - 1);
      else this.#others.delete(key);
      return undefined;
    }
    const slot = waiting.shift();
    if (waiting.length === 0) this.#prompts.delete(key);
    return slot;
  }
}
