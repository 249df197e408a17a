/**
 * An agent behind `buzz-meta proxy` (the built command, `dist/cli/bin.js`: run `npm run build`
 * first), with the real ACP SDK client as the host, connected over the proxy's stdio as Buzz
 * would be. The host answers permission requests with the first option and file reads with a
 * fixed text, and keeps every message chunk the agent streams.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import {
  client,
  type ClientContext,
  methods,
  PROTOCOL_VERSION,
  type PromptRequest,
  type PromptResponse,
} from '@agentclientprotocol/sdk';
import { childStream } from '../../../src/acp/index.js';

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
  /** Sends `signal` to the proxy process. */
  signal(signal: NodeJS.Signals): void;
  /** Resolves with the proxy's exit code once it exited. */
  readonly exited: Promise<number | null>;
  /** Ends the host's side (the proxy's stdin) and waits for the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `buzz-meta proxy <proxyArgs> -- <agent>`, initializes, and opens one session. */
export async function startProxied(
  proxyArgs: readonly string[],
  agent: readonly string[] = FIXTURE_AGENT,
  env: Readonly<Record<string, string>> = {},
): Promise<Proxied> {
  const child = spawn(process.execPath, [BIN, 'proxy', ...proxyArgs, '--', ...agent], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  const waiting = new Set<() => void>();
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
    for (const check of waiting) check();
  });
  // 'close', not 'exit': by then everything the proxy wrote to stderr has been read.
  const exited = once(child, 'close').then(([code]) => code as number | null);
  const chunks: string[] = [];
  const connection = client({ name: 'buzz-meta-proxy-test-host' })
    .onNotification(methods.client.session.update, ({ params }) => {
      const update = params.update;
      if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
        chunks.push(update.content.text);
      }
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => ({
      outcome: { outcome: 'selected', optionId: params.options[0]?.optionId ?? 'none' },
    }))
    .onRequest(methods.client.fs.readTextFile, () => ({ content: FILE_TEXT }))
    .connect(childStream(child));
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
    stderr: () => stderr,
    stderrHas: (text) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (!stderr.includes(text)) return;
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      }),
    signal: (signal) => child.kill(signal),
    exited,
    async stop() {
      child.stdin.end();
      const code = await exited;
      connection.close();
      return code;
    },
  };
}
