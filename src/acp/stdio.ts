/**
 * ACP over stdio without the `ndJsonStream(Writable.toWeb(…), Readable.toWeb(…))` line, whose
 * web-stream types do not line up under every tsconfig: these helpers take Node streams and
 * return the SDK's `Stream`.
 */
import type { Readable, Writable } from 'node:stream';
import type { AgentApp, AgentConnection, NdJsonStreamOptions, Stream } from '@agentclientprotocol/sdk';
import { acpSdk } from './sdk.js';

/**
 * The two pipes of a child process spawned with `stdio: ['pipe', 'pipe', …]`.
 *
 * @example
 * ```ts
 * import { spawn } from 'node:child_process'
 * import { client } from '@agentclientprotocol/sdk'
 * import { childStream, type ChildPipes } from 'buzz-meta/acp'
 *
 * const child: ChildPipes = spawn('node', ['my-agent.js'], { stdio: ['pipe', 'pipe', 'inherit'] })
 * const connection = client({ name: 'my-host' }).connect(childStream(child))
 * ```
 * @group ACP
 */
export interface ChildPipes {
  /** The child's stdin (what this side writes to). */
  readonly stdin: Writable | null;
  /** The child's stdout (what this side reads). */
  readonly stdout: Readable | null;
}

/**
 * An ACP `Stream` that writes `output` and reads `input` as newline-delimited JSON-RPC.
 *
 * @example
 * ```ts
 * import { connect } from 'node:net'
 * import { client } from '@agentclientprotocol/sdk'
 * import { nodeStream } from 'buzz-meta/acp'
 *
 * // An agent reached over a Unix socket instead of a child's pipes.
 * const socket = connect('/tmp/my-agent.sock')
 * const connection = client({ name: 'my-host' }).connect(nodeStream(socket, socket))
 * ```
 * @group ACP
 */
export function nodeStream(output: Writable, input: Readable, options?: NdJsonStreamOptions): Stream {
  // Loaded here rather than imported: node:stream would be a cost of every cold import, which the SDK does not pay.
  const streams = process.getBuiltinModule('node:stream');
  return acpSdk().ndJsonStream(streams.Writable.toWeb(output), streams.Readable.toWeb(input), options);
}

/**
 * Serves `app` on this process's stdin/stdout. Stdout then carries only the protocol: log to stderr.
 *
 * @example
 * ```ts
 * import { agent } from '@agentclientprotocol/sdk'
 * import { connectStdio } from 'buzz-meta/acp'
 *
 * await connectStdio(agent({ name: 'my-agent' })).closed // resolves when stdin ends
 * ```
 * @group ACP
 */
export function connectStdio(app: AgentApp, options?: NdJsonStreamOptions): AgentConnection {
  return app.connect(nodeStream(process.stdout, process.stdin, options));
}

/**
 * The host side: an ACP `Stream` to an agent child process, for `client().connect(...)`.
 *
 * @example
 * ```ts
 * import { spawn } from 'node:child_process'
 * import { client } from '@agentclientprotocol/sdk'
 * import { childStream } from 'buzz-meta/acp'
 *
 * const child = spawn('node', ['agent.js'], { stdio: ['pipe', 'pipe', 'inherit'] })
 * const connection = client({ name: 'my-host' }).connect(childStream(child))
 * ```
 * @group ACP
 */
export function childStream(child: ChildPipes, options?: NdJsonStreamOptions): Stream {
  if (child.stdin === null || child.stdout === null) {
    throw new TypeError("the child process needs stdio: ['pipe', 'pipe', …]");
  }
  return nodeStream(child.stdin, child.stdout, options);
}
