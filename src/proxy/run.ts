/**
 * `buzz-meta proxy -- <agent command>`: spawns the agent, relays its stdio with the host's, and
 * ends as the agent ends. The agent's exit code becomes the proxy's (128 + the signal number when
 * a signal ended it); the host's end of input closes the agent's stdin; SIGINT, SIGTERM and SIGHUP
 * are passed to the agent; the agent's stderr is the proxy's own, inherited.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { TurnRunner } from '../acp/turn-runner.js';
import type { BuzzContext, Trust } from '../context.js';
import { createDeduper } from '../dedup/deduper.js';
import type { Deduper, DedupStore } from '../dedup/types.js';
import type { BuzzLimits } from '../limits.js';
import { createBuzzReader } from '../read/reader.js';
import { createLog, type LogLevel, type ProxyLog } from './log.js';
import { Relay } from './relay.js';

/** Everything `buzz-meta proxy` is told, checked. */
export interface ProxyOptions {
  /** The agent's command and its arguments. */
  readonly command: string;
  readonly args: readonly string[];
  /** Relay and record only: no prompt is read, nothing is removed or added. */
  readonly passThrough: boolean;
  readonly agentPubkey?: string | undefined;
  readonly minTrust?: Trust | undefined;
  readonly missing: 'pass' | 'refuse';
  readonly scrape: boolean;
  readonly limits?: Partial<BuzzLimits> | undefined;
  /** Where claims live; absent: no dedup. */
  readonly dedup?:
    | {
        readonly store: DedupStore;
        /** A failed store call fails the prompt (`dedup_store_unavailable`) instead of treating its events as fresh. */
        readonly failClosed?: boolean;
        readonly close?: () => Promise<void>;
      }
    | undefined;
  /** Prefix of the keys in `_meta.buzzContext` (default `buzz`). */
  readonly keyPrefix?: string | undefined;
  readonly keepBuzz: boolean;
  /** File the host side of the traffic is appended to, as NDJSON. */
  readonly record?: string | undefined;
  readonly maxLineBytes: number;
  readonly logLevel: LogLevel;
}

/** The proxy's own stdio (the process's, or a test's). */
export interface ProxyIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly writeErr: (text: string) => void;
  /** Where the agent's stderr goes: inherited (this process's own stderr), or each chunk to a function. */
  readonly agentStderr: 'inherit' | ((chunk: Uint8Array) => void);
}

/** The signals passed on to the agent. */
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The exit code of a process that ended with `code` or by `signal`. */
function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const number = signal === null ? undefined : constants.signals[signal];
  return number === undefined ? 1 : 128 + number;
}

/** How a failed spawn is reported: a shell's codes (127 not found, 126 not executable). */
function spawnFailure(error: NodeJS.ErrnoException): { code: number; why: string } {
  const code = error.code === 'ENOENT' ? 127 : error.code === 'EACCES' ? 126 : 1;
  return { code, why: `could not be started (${error.code ?? error.name})` };
}

/** The turn runner of a reading proxy; `undefined` for `--pass-through`. */
async function runnerFor(options: ProxyOptions, log: ProxyLog): Promise<TurnRunner<BuzzContext> | undefined> {
  if (options.passThrough) return undefined;
  const reader = await createBuzzReader({
    ...(options.agentPubkey === undefined ? {} : { agentPubkey: options.agentPubkey }),
    ...(options.minTrust === undefined ? {} : { minTrust: options.minTrust }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    scrape: options.scrape,
  });
  let deduper: Deduper | undefined;
  if (options.dedup !== undefined) {
    deduper = createDeduper({
      store: options.dedup.store,
      onStoreError: options.dedup.failClosed === true ? 'fail-closed' : 'fail-open',
      onError: (error) => {
        log.fault(`dedup store: ${error.message}`);
      },
    });
  }
  return new TurnRunner<BuzzContext>(
    { reader, deduper, missing: options.missing, prefix: options.keyPrefix },
    // The agent answers its own cancelled prompts; the host gets that answer, after its last updates.
    'by-work',
  );
}

/**
 * Runs the proxy until the agent has exited and everything it wrote reached the host; returns the
 * exit code. Never throws for anything the agent or the host does; bad options throw before the
 * agent starts (the reader's `invalid_option` errors).
 */
export async function runProxy(options: ProxyOptions, io: ProxyIo): Promise<number> {
  const log = createLog(options.logLevel, io.writeErr);
  const runner = await runnerFor(options, log);
  if (runner === undefined) {
    log.info('pass-through: prompts are not read and a host-sent _meta.buzzContext reaches the agent as sent');
  }
  let record: WriteStream | undefined;
  if (options.record !== undefined) {
    record = createWriteStream(options.record, { flags: 'a' });
    record.on('error', (error: NodeJS.ErrnoException) => {
      log.fault(`cannot write the record file (${error.code ?? error.name}); recording stopped`);
      record = undefined;
    });
  }

  const { agentStderr } = io;
  const child =
    agentStderr === 'inherit'
      ? spawn(options.command, [...options.args], { stdio: ['pipe', 'pipe', 'inherit'] })
      : spawn(options.command, [...options.args], { stdio: ['pipe', 'pipe', 'pipe'] });
  if (agentStderr !== 'inherit') child.stderr?.on('data', agentStderr);
  const started = new Promise<{ code: number; why: string }>((resolve) => {
    child.once('error', (error) => {
      resolve(spawnFailure(error));
    });
    child.once('close', (code, signal) => {
      const exit = exitCodeOf(code, signal);
      resolve({ code: exit, why: signal === null ? `exited with code ${String(exit)}` : `was ended by ${signal}` });
    });
  });
  const relay = new Relay(
    { input: io.stdin, output: io.stdout },
    { input: child.stdout, output: child.stdin },
    {
      reading:
        runner === undefined
          ? undefined
          : { runner, keepBuzz: options.keepBuzz, prefix: options.keyPrefix, dedup: options.dedup !== undefined },
      maxLineBytes: options.maxLineBytes,
      log,
      record: (line) => record?.write(line),
    },
  );
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  void relay.hostToAgent();
  const agentOutput = relay.agentToHost();

  const ended = await started;
  await agentOutput;
  if (child.pid === undefined) log.fault(`the agent ${ended.why}: ${options.command}`);
  else if (ended.code !== 0) log.fault(`the agent ${ended.why}`);
  relay.agentGone(ended.why);
  await relay.settled();

  for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
  io.stdin.destroy();
  await new Promise<void>((resolve) =>
    io.stdout.write('', () => {
      resolve();
    }),
  );
  const recording = record;
  if (recording !== undefined) {
    await new Promise<void>((resolve) =>
      recording.end(() => {
        resolve();
      }),
    );
  }
  await options.dedup?.close?.().catch(() => undefined);
  return ended.code;
}
