/**
 * Starts an agent as a real child process (`node --import tsx <script>`: an example, or a test
 * fixture agent) and connects the real ACP SDK client to it over stdio, as Buzz would: one
 * process per test file, shared by its tests.
 */
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import {
  type ClientContext,
  methods,
  PROTOCOL_VERSION,
  type PromptRequest,
  type PromptResponse,
} from '@agentclientprotocol/sdk';
import { childStream } from '../../../src/acp/index.js';
import { chunkKeepingClient, spawnNode } from '../../support/acp-host.js';

/** A running example agent and a connected host. */
export interface AgentProcess {
  /** Sends a `session/prompt`; returns the response and the agent's message text for it. */
  prompt(meta: Record<string, unknown> | undefined, text?: string): Promise<{ response: PromptResponse; text: string }>;
  /** Sends `session/cancel` for the session. */
  cancel(): Promise<void>;
  /** Everything the agent wrote to stderr so far. */
  stderr(): string;
  /** Resolves once the agent's stderr has `text` in it `count` times (default once). */
  stderrHas(text: string, count?: number): Promise<void>;
  /** The connected host, for requests of a test's own (concurrent prompts, cancellation signals). */
  readonly host: ClientContext;
  /** The session opened at start-up. */
  readonly sessionId: string;
  /** Sends `signal` to the agent process. */
  signal(signal: NodeJS.Signals): void;
  /** Ends stdin, waits for the exit; returns the exit code. */
  stop(): Promise<number | null>;
}

/** Spawns `examples/<name>.ts` with `env` added, initializes, and opens one session. */
export function startExample(name: string, env: Readonly<Record<string, string>>): Promise<AgentProcess> {
  return startAgentProcess(fileURLToPath(new URL(`../../../examples/${name}.ts`, import.meta.url)), env);
}

/** Spawns the agent `script` with `env` added, initializes, and opens one session. */
export async function startAgentProcess(script: string, env: Readonly<Record<string, string>>): Promise<AgentProcess> {
  const { child, stderr } = spawnNode(['--import', 'tsx', script], env);
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const chunks: string[] = [];
  const connection = chunkKeepingClient('buzz-meta-example-test-host', chunks).connect(childStream(child));
  await connection.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION });
  const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd: '/', mcpServers: [] });
  return {
    async prompt(meta, text = 'hello') {
      chunks.length = 0;
      const params: PromptRequest = {
        sessionId,
        prompt: [{ type: 'text', text }],
        ...(meta === undefined ? {} : { _meta: meta }),
      };
      const response = await connection.agent.request(methods.agent.session.prompt, params);
      return { response, text: chunks.join('') };
    },
    cancel: () => connection.agent.notify(methods.agent.session.cancel, { sessionId }),
    stderr: () => stderr.text,
    stderrHas: (text, count) => stderr.has(text, count),
    host: connection.agent,
    sessionId,
    signal: (signal) => child.kill(signal),
    async stop() {
      connection.close();
      child.stdin.end();
      return exited;
    },
  };
}
