/**
 * An agent behind `buzz-meta proxy`, with the real ACP SDK client as the host, connected over the
 * proxy's stdio as Buzz would be. The host answers permission requests with the first option and
 * file reads with a fixed text, and keeps every message chunk the agent streams.
 *
 * {@link startProxied} runs the command's own `main` in this process, so coverage sees the relay
 * (the agent's stderr is copied into what `stderr()` returns, as the command's inherits it);
 * {@link spawnProxied} runs the built command (`dist/cli/bin.js`: run `npm run build` first) in a
 * process of its own, for what only a process has: signals, an exit code, the shipped build.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  type ClientContext,
  methods,
  PROTOCOL_VERSION,
  type PromptRequest,
  type PromptResponse,
  type Stream,
} from '@agentclientprotocol/sdk';
import { childStream, nodeStream } from '../../../src/acp/index.js';
import { main } from '../../../src/cli/main.js';
import { chunkKeepingClient, spawnNode, StderrText } from '../../support/acp-host.js';

/** The built command. */
export const BIN = fileURLToPath(new URL('../../../dist/cli/bin.js', import.meta.url));
/** The SDK fixture agent (test/proxy/fixtures/agent.mjs). */
export const FIXTURE_AGENT = ['node', fileURLToPath(new URL('../fixtures/agent.mjs', import.meta.url))];
/** What the host answers to `fs/read_text_file`. */
export const FILE_TEXT = 'message of the day';

/** A running proxy with its agent, and the connected host. */
export interface Proxied {
  /** The host's side of the connection. */
  readonly host: ClientContext;
  /** The session opened at start-up. */
  readonly sessionId: string;
  /** Sends a `session/prompt` with `text` and `meta` as `_meta` (none when `undefined`). */
  prompt(text: string, meta?: Record<string, unknown>): Promise<PromptResponse>;
  /** Every message chunk the host received, in order. */
  readonly chunks: string[];
  /** What the proxy (and the agent, whose stderr it inherits) wrote to stderr so far. */
  stderr(): string;
  /** Resolves once stderr has `text` in it. */
  stderrHas(text: string): Promise<void>;
  /** Resolves with the proxy's exit code once it ended. */
  readonly exited: Promise<number | null>;
  /** Ends the host's side (the proxy's stdin) and waits for the exit code. */
  stop(): Promise<number | null>;
}

/** A proxy in a process of its own. */
export interface SpawnedProxy extends Proxied {
  /** Sends `signal` to the proxy process. */
  signal(signal: NodeJS.Signals): void;
}

/** Connects the test host over `stream`, initializes, opens one session. */
async function connectHost(
  stream: Stream,
  stderr: StderrText,
  exited: Promise<number | null>,
  endInput: () => void,
): Promise<Proxied> {
  const chunks: string[] = [];
  const connection = chunkKeepingClient('buzz-meta-proxy-test-host', chunks)
    .onRequest(methods.client.session.requestPermission, ({ params }) => ({
      outcome: { outcome: 'selected', optionId: params.options[0]?.optionId ?? 'none' },
    }))
    .onRequest(methods.client.fs.readTextFile, () => ({ content: FILE_TEXT }))
    .connect(stream);
  await connection.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION });
  const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd: '/', mcpServers: [] });
  return {
    host: connection.agent,
    sessionId,
    prompt(text, meta) {
      const params: PromptRequest = {
        sessionId,
        prompt: [{ type: 'text', text }],
        ...(meta === undefined ? {} : { _meta: meta }),
      };
      return connection.agent.request(methods.agent.session.prompt, params);
    },
    chunks,
    stderr: () => stderr.text,
    stderrHas: (text) => stderr.has(text),
    exited,
    async stop() {
      endInput();
      const code = await exited;
      connection.close();
      return code;
    },
  };
}

/** Runs `buzz-meta proxy <proxyArgs> -- <agent>` in this process (its `main`, `env` as its environment). */
export async function startProxied(
  proxyArgs: readonly string[],
  agent: readonly string[] = FIXTURE_AGENT,
  env: Readonly<Record<string, string>> = {},
): Promise<Proxied> {
  const toProxy = new PassThrough();
  const fromProxy = new PassThrough();
  const stderr = new StderrText();
  const exited = main(['proxy', ...proxyArgs, '--', ...agent], {
    writeOut: (text) => fromProxy.write(text),
    writeErr: (text) => {
      stderr.add(text);
    },
    openStdin: () => null,
    env,
    relayStdio: () => ({
      stdin: toProxy,
      stdout: fromProxy,
      agentStderr: (chunk) => {
        stderr.add(Buffer.from(chunk).toString('utf8'));
      },
    }),
  });
  return connectHost(nodeStream(toProxy, fromProxy), stderr, exited, () => toProxy.end());
}

/** Starts the built `buzz-meta proxy <proxyArgs> -- <agent>` as a child process. */
export async function spawnProxied(
  proxyArgs: readonly string[],
  agent: readonly string[] = FIXTURE_AGENT,
  env: Readonly<Record<string, string>> = {},
): Promise<SpawnedProxy> {
  const { child, stderr } = spawnNode([BIN, 'proxy', ...proxyArgs, '--', ...agent], env);
  // 'close', not 'exit': by then everything the proxy wrote to stderr has been read.
  const exited = once(child, 'close').then(([code]) => code as number | null);
  const proxied = await connectHost(childStream(child), stderr, exited, () => child.stdin.end());
  return { ...proxied, signal: (signal) => child.kill(signal) };
}
