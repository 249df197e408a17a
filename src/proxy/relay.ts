/**
 * The relay between a host and an agent: newline-delimited JSON-RPC both ways, each line passed
 * on as the bytes that arrived, except `session/prompt` from the host, which runs as a turn of the
 * shared {@link TurnRunner} (read, trust and missing-context policy, claim, forward, settle), and
 * `session/cancel`, which is forwarded and also cancels the session's turns. Lines that are not
 * JSON, or longer than the bound, are never passed on: each is one line on stderr and, where the
 * request it belongs to can be told, a JSON-RPC error for that request.
 */
import { isUtf8 } from 'node:buffer';
import type { Readable, Writable } from 'node:stream';
import type { PromptRequest, PromptResponse } from '@agentclientprotocol/sdk';
import { BUZZ_OUTCOME_META_KEY, type BuzzTurn, BuzzTurnError, type TurnRunner } from '../acp/turn-runner.js';
import type { BuzzContext } from '../context.js';
import { buzzContextJson } from './context-json.js';
import { type Line, LineSplitter, type LongLine } from './lines.js';
import type { ProxyLog } from './log.js';
import { classify, errorLine, idKey, internalErrorLine, resultLine, type RpcId, thrownErrorLine } from './messages.js';
import { spliceMeta } from './meta-splice.js';
import { recoverEnvelope } from './recover.js';

/** One end of the relay: what it reads from and what it writes to. */
interface RelayEnd {
  readonly input: Readable;
  readonly output: Writable;
}

/** How prompts are read; absent for `--pass-through`. */
interface PromptReading {
  readonly runner: TurnRunner<BuzzContext>;
  /** Keep the host's `_meta.buzz` in the forwarded prompt (default of the command). */
  readonly keepBuzz: boolean;
  /** Prefix of the keys in `_meta.buzzContext`. */
  readonly prefix?: string | undefined;
  /** Whether the runner has a deduper. */
  readonly dedup: boolean;
}

/** Options of a {@link Relay}. */
interface RelayOptions {
  readonly reading?: PromptReading | undefined;
  readonly maxLineBytes: number;
  readonly log: ProxyLog;
  /** Gets every JSON line the host sent and every line written to the host, as written. */
  readonly record?: ((line: Uint8Array) => void) | undefined;
}

/** An answer of the agent that goes to the host as the bytes the agent wrote. */
class AgentAnswer extends Error {
  override readonly name = 'AgentAnswer';
  constructor(readonly raw: Uint8Array) {
    super('the agent answered with an error');
  }
}

/** The agent failed to answer a prompt (gone, or its answer could not be relayed): `message` says how. */
class AgentFailure extends Error {
  override readonly name = 'AgentFailure';
}

/** A prompt forwarded to the agent, waiting for its answer. */
interface ForwardedPrompt {
  readonly resolve: (response: PromptResponse) => void;
  readonly reject: (error: unknown) => void;
}

const BUZZ_CONTEXT_KEY = 'buzzContext';
const HOST_CONTEXT_REMOVED = '_meta.buzzContext sent by the host was removed: only buzz-meta proxy writes it';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parsed line, or why it is not one JSON object. */
function parseLine(
  bytes: Buffer,
): { ok: true; value: Record<string, unknown>; text: string } | { ok: false; why: string } {
  if (!isUtf8(bytes)) return { ok: false, why: 'not UTF-8' };
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, why: 'not JSON' };
  }
  if (Array.isArray(value)) return { ok: false, why: 'a JSON-RPC batch, which ACP does not use' };
  if (!isObject(value)) return { ok: false, why: 'not a JSON-RPC message' };
  return { ok: true, value, text };
}

/** Whether the line holds only white space (skipped, as the SDK skips it). */
function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}

/** Resolves once `stream` can take more, or will never again. */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/**
 * Writes `line` to `output` unless it is closed; returns whether it did. Lines written in the same
 * tick leave in one system call: a pipe write costs far more than a line, and a busy session
 * writes many small lines at once (a prompt's updates, its answer, the next prompt).
 */
function writeLine(output: Writable, line: string | Uint8Array): boolean {
  if (output.writableEnded || output.destroyed) return false;
  if (output.writableCorked === 0) {
    output.cork();
    process.nextTick(() => {
      output.uncork();
    });
  }
  output.write(line);
  return true;
}

/** Relays one host connection to one agent process. */
export class Relay {
  readonly #host: RelayEnd;
  readonly #agent: RelayEnd;
  readonly #options: RelayOptions;
  readonly #log: ProxyLog;
  /** Prompts in flight per session: cancelled when the host's input ends or the agent is gone. */
  readonly #sessions = new Map<string, number>();
  #closed = false;
  /** Host requests forwarded to the agent and not answered yet, by id key (prompts excluded). */
  readonly #hostRequests = new Map<string, RpcId>();
  /** Prompts forwarded to the agent and not answered yet, by id key. */
  readonly #prompts = new Map<string, ForwardedPrompt>();
  /** The agent's prompt answers that go to the host as the agent wrote them. */
  readonly #agentAnswers = new WeakMap<object, Uint8Array>();
  /** Set once the agent is gone: why, for the errors of what it never answered. */
  #agentGone: string | undefined;

  constructor(host: RelayEnd, agent: RelayEnd, options: RelayOptions) {
    this.#host = host;
    this.#agent = agent;
    this.#options = options;
    this.#log = options.log;
    // A peer that went away makes writes fail; the read side of each pipe reports the end.
    host.output.on('error', () => undefined);
    agent.output.on('error', () => undefined);
  }

  /** Relays host → agent until the host's input ends, then ends the agent's input. */
  async hostToAgent(): Promise<void> {
    const splitter = new LineSplitter(this.#options.maxLineBytes);
    try {
      for await (const chunk of this.#host.input as AsyncIterable<Buffer>) {
        for (const line of splitter.push(chunk)) this.#fromHost(line);
        if (this.#agent.output.writableNeedDrain) await drained(this.#agent.output);
      }
    } catch {
      // A host input that fails is a host that went away: handled as its end.
    }
    const last = splitter.flush();
    if (last !== undefined) this.#fromHost(last);
    this.#close();
    this.#agent.output.end();
  }

  /** Relays agent → host until the agent's output ends. */
  async agentToHost(): Promise<void> {
    const splitter = new LineSplitter(this.#options.maxLineBytes);
    try {
      for await (const chunk of this.#agent.input as AsyncIterable<Buffer>) {
        for (const line of splitter.push(chunk)) this.#fromAgent(line);
        if (this.#host.output.writableNeedDrain) await drained(this.#host.output);
      }
    } catch {
      // Handled as the end of the agent's output.
    }
    const last = splitter.flush();
    if (last !== undefined) this.#fromAgent(last);
  }

  /**
   * The agent is gone (`why` says how, e.g. "exited with code 3"): every request it did not answer
   * is answered with an error, and prompts still on their way to it will be too.
   */
  agentGone(why: string): void {
    this.#agentGone = why;
    const details = `the agent ${why} before answering`;
    for (const [key, id] of this.#hostRequests) {
      this.#hostRequests.delete(key);
      this.#toHost(internalErrorLine(id, details));
    }
    for (const [key, prompt] of this.#prompts) {
      this.#prompts.delete(key);
      prompt.reject(new AgentFailure(details));
    }
    // Turns still waiting for a claim end now; their answers say the agent is gone.
    this.#close();
  }

  /** Whether prompts are still in flight (waiting for their turn, the store or the agent). */
  get promptsInFlight(): number {
    return this.#inFlight;
  }

  #inFlight = 0;
  #settledWaiters: (() => void)[] = [];

  /** Resolves once no prompt is in flight. */
  async settled(): Promise<void> {
    if (this.#inFlight === 0) return;
    await new Promise<void>((resolve) => this.#settledWaiters.push(resolve));
  }

  /** Cancels every turn in flight (claims released), and the turns of prompts still to come. */
  #close(): void {
    this.#closed = true;
    const runner = this.#options.reading?.runner;
    for (const sessionId of this.#sessions.keys()) void runner?.cancel(sessionId);
  }

  #toHost(line: string | Uint8Array): void {
    if (!writeLine(this.#host.output, line)) return;
    this.#options.record?.(typeof line === 'string' ? Buffer.from(line) : line);
  }

  #toAgent(line: string | Uint8Array): void {
    writeLine(this.#agent.output, line);
  }

  #fromHost(line: Line | LongLine): void {
    if (line.kind === 'too-long') {
      const { id, hasMethod } = recoverEnvelope(line.head.toString('utf8'), line.tail.toString('latin1'));
      this.#log.fault(
        `a message from the host of ${String(line.length)} bytes is longer than the bound; not forwarded`,
      );
      if (hasMethod && id !== undefined) {
        this.#toHost(errorLine(id, -32600, 'Invalid request', { details: 'the message is longer than the bound' }));
      }
      return;
    }
    if (isBlank(line.bytes)) return;
    const parsed = parseLine(line.bytes);
    if (!parsed.ok) {
      this.#log.fault(`a line of ${String(line.bytes.length)} bytes from the host is ${parsed.why}; not forwarded`);
      this.#toHost(
        parsed.why === 'not JSON' || parsed.why === 'not UTF-8'
          ? errorLine(null, -32700, 'Parse error')
          : errorLine(null, -32600, 'Invalid request', { details: `the message is ${parsed.why}` }),
      );
      return;
    }
    this.#options.record?.(line.raw);
    const message = parsed.value;
    const kind = classify(message);
    const reading = this.#options.reading;
    if (reading !== undefined && kind.kind !== 'response' && kind.kind !== 'other') {
      if (kind.method === 'session/prompt') {
        if (kind.kind === 'request') void this.#prompt(reading, kind.id, message, parsed.text);
        else this.#log.fault('a session/prompt without an id (a notification) was dropped');
        return;
      }
      if (kind.method === 'session/cancel') {
        this.#toAgent(line.raw);
        const params = message.params;
        if (isObject(params) && typeof params.sessionId === 'string') void reading.runner.cancel(params.sessionId);
        return;
      }
    }
    if (kind.kind === 'request') this.#hostRequests.set(idKey(kind.id), kind.id);
    this.#toAgent(line.raw);
  }

  #fromAgent(line: Line | LongLine): void {
    if (line.kind === 'too-long') {
      const { id, hasMethod } = recoverEnvelope(line.head.toString('utf8'), line.tail.toString('latin1'));
      this.#badAgentLine(`a message from the agent of ${String(line.length)} bytes is longer than the bound`, {
        id,
        hasMethod,
        details: `the agent's message was longer than ${String(this.#options.maxLineBytes)} bytes`,
      });
      return;
    }
    if (isBlank(line.bytes)) return;
    const parsed = parseLine(line.bytes);
    if (!parsed.ok) {
      const text = line.bytes.toString('latin1');
      const { id, hasMethod } = recoverEnvelope(text.slice(0, 65_536), text.slice(-256));
      this.#badAgentLine(`a line of ${String(line.bytes.length)} bytes from the agent is ${parsed.why}`, {
        id,
        hasMethod,
        details: `the agent's message was ${parsed.why}`,
      });
      return;
    }
    const message = parsed.value;
    const kind = classify(message);
    if (kind.kind === 'response') {
      const key = idKey(kind.id);
      const prompt = this.#prompts.get(key);
      if (prompt !== undefined) {
        this.#prompts.delete(key);
        const result = message.result;
        if (!Object.hasOwn(message, 'error') && isObject(result) && typeof result.stopReason === 'string') {
          this.#agentAnswers.set(result, line.raw);
          prompt.resolve(result as PromptResponse);
        } else {
          prompt.reject(new AgentAnswer(line.raw));
        }
        return;
      }
      this.#hostRequests.delete(key);
    }
    this.#toHost(line.raw);
  }

  /** A line from the agent that cannot be passed on: said on stderr, and answered where it can be. */
  #badAgentLine(
    what: string,
    found: { readonly id: RpcId | undefined; readonly hasMethod: boolean; readonly details: string },
  ): void {
    const { id, hasMethod, details } = found;
    if (id === undefined) {
      this.#log.fault(`${what}; dropped (no request id found in it)`);
      return;
    }
    const key = idKey(id);
    if (hasMethod) {
      this.#log.fault(`${what}; dropped, the agent's request ${key} answered with an error`);
      this.#toAgent(errorLine(id, -32600, 'Invalid request', { details: 'the message could not be relayed' }));
      return;
    }
    const prompt = this.#prompts.get(key);
    if (prompt !== undefined) {
      this.#prompts.delete(key);
      this.#log.fault(`${what}; dropped, prompt ${key} answered with an error`);
      prompt.reject(new AgentFailure(details));
      return;
    }
    if (this.#hostRequests.delete(key)) {
      this.#log.fault(`${what}; dropped, request ${key} answered with an error`);
      this.#toHost(internalErrorLine(id, details));
      return;
    }
    this.#log.fault(`${what}; dropped (it answers no pending request)`);
  }

  /** One `session/prompt`: run as a turn whose work is forwarding it; its answer written to the host. */
  async #prompt(reading: PromptReading, id: RpcId, message: Record<string, unknown>, text: string): Promise<void> {
    this.#inFlight++;
    try {
      const params = message.params;
      if (!isObject(params) || typeof params.sessionId !== 'string' || !Array.isArray(params.prompt)) {
        this.#toHost(errorLine(id, -32602, 'Invalid params', { details: 'session/prompt needs sessionId and prompt' }));
        return;
      }
      const meta = params._meta;
      const spoofed = isObject(meta) && Object.hasOwn(meta, BUZZ_CONTEXT_KEY);
      if (spoofed) this.#log.info(`prompt ${idKey(id)}: ${HOST_CONTEXT_REMOVED}`);
      const answer = await this.#turnAnswer(reading, id, params as unknown as PromptRequest, (buzz) =>
        this.#forward(reading, message, text, buzz, spoofed),
      );
      this.#toHost(answer);
    } finally {
      this.#inFlight--;
      if (this.#inFlight === 0) for (const resolve of this.#settledWaiters.splice(0)) resolve();
    }
  }

  /** The line that answers prompt `id`: the agent's own, the runner's, or an error. */
  async #turnAnswer(
    reading: PromptReading,
    id: RpcId,
    params: PromptRequest,
    forward: (buzz: BuzzTurn | undefined) => Promise<PromptResponse>,
  ): Promise<string | Uint8Array> {
    let response: PromptResponse;
    const { sessionId } = params;
    this.#sessions.set(sessionId, (this.#sessions.get(sessionId) ?? 0) + 1);
    try {
      const answered = reading.runner.prompt(params, undefined, (buzz) => forward(buzz));
      // A prompt that arrives after the end is cancelled as the ones in flight were.
      if (this.#closed) void reading.runner.cancel(sessionId);
      response = await answered;
    } catch (error) {
      if (error instanceof AgentAnswer) return error.raw;
      if (error instanceof AgentFailure) return internalErrorLine(id, error.message);
      if (error instanceof BuzzTurnError) {
        this.#log.info(`prompt ${idKey(id)}: answered with an error (${error.data.code})`);
      }
      return thrownErrorLine(id, error);
    } finally {
      const left = (this.#sessions.get(sessionId) ?? 1) - 1;
      if (left === 0) this.#sessions.delete(sessionId);
      else this.#sessions.set(sessionId, left);
    }
    const raw = this.#agentAnswers.get(response);
    if (raw !== undefined) return raw;
    const outcome: unknown = response._meta?.[BUZZ_OUTCOME_META_KEY];
    const gone = this.#agentGone;
    // A turn cancelled because the agent went away: the host learns that, not a cancel it never sent.
    if (gone !== undefined && isObject(outcome) && outcome.outcome === 'cancelled') {
      return internalErrorLine(id, `the agent ${gone} before answering`);
    }
    this.#log.info(`prompt ${idKey(id)}: answered by the proxy (${describeOutcome(outcome)})`);
    return resultLine(id, response);
  }

  /** Forwards the prompt with `_meta.buzzContext` and resolves with the agent's answer. */
  #forward(
    reading: PromptReading,
    message: Record<string, unknown>,
    text: string,
    buzz: BuzzTurn | undefined,
    spoofed: boolean,
  ): Promise<PromptResponse> {
    if (this.#agentGone !== undefined) {
      return Promise.reject(new AgentFailure(`the agent ${this.#agentGone} before answering`));
    }
    const id = message.id as RpcId;
    const add: [string, string][] = [];
    if (buzz !== undefined) {
      const json = buzzContextJson(buzz, {
        prefix: reading.prefix,
        dedup: reading.dedup,
        diagnostics: spoofed ? [HOST_CONTEXT_REMOVED] : [],
      });
      add.push([BUZZ_CONTEXT_KEY, JSON.stringify(json)]);
      this.#log.debug(
        `prompt ${idKey(id)}: forwarded, ${json.trust} ${json.source}, ${String(json.events.length)} event(s)`,
      );
    } else {
      this.#log.debug(`prompt ${idKey(id)}: forwarded without Buzz context`);
    }
    const changed = spoofed || buzz !== undefined || (!reading.keepBuzz && hasBuzz(message));
    const line = changed
      ? spliceMeta(text, message, {
          keep: (key) => key !== BUZZ_CONTEXT_KEY && (reading.keepBuzz || key !== 'buzz'),
          add,
        }) + '\n'
      : `${text}\n`;
    return new Promise<PromptResponse>((resolve, reject) => {
      this.#prompts.set(idKey(id), { resolve, reject });
      this.#toAgent(line);
    });
  }
}

function hasBuzz(message: Record<string, unknown>): boolean {
  const params = message.params;
  return isObject(params) && isObject(params._meta) && Object.hasOwn(params._meta, 'buzz');
}

/** The outcome of a prompt the proxy answered, for its log line (codes and counts only). */
function describeOutcome(outcome: unknown): string {
  if (!isObject(outcome)) return 'unknown';
  if (outcome.outcome === 'refused') return `refused: ${String(outcome.code)} at ${String(outcome.path) || '(params)'}`;
  if (outcome.outcome === 'all-seen') return `all ${String(outcome.seen)} event(s) already handled`;
  return String(outcome.outcome);
}
