/**
 * What the tests' ACP hosts share: the text an agent process (or a proxy) wrote to stderr, with a
 * way to wait for a line, and an SDK client that keeps every message chunk the agent streams.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { client, methods } from '@agentclientprotocol/sdk';

/** The stderr text seen so far, and waiters for text still to come. */
export class StderrText {
  text = '';
  readonly #waiting = new Set<() => void>();

  add(text: string): void {
    this.text += text;
    for (const check of this.#waiting) check();
  }

  /** Resolves once the text holds `text` `count` times (default once). */
  has(text: string, count = 1): Promise<void> {
    return new Promise<void>((resolve) => {
      const check = (): void => {
        if (this.text.split(text).length - 1 < count) return;
        this.#waiting.delete(check);
        resolve();
      };
      this.#waiting.add(check);
      check();
    });
  }
}

/** An SDK client named `name` that appends the text of every `agent_message_chunk` to `chunks`. */
export function chunkKeepingClient(name: string, chunks: string[]): ReturnType<typeof client> {
  return client({ name }).onNotification(methods.client.session.update, ({ params }) => {
    const update = params.update;
    if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
      chunks.push(update.content.text);
    }
  });
}

/** Runs `node <args>` with `env` added to this process's, stdio piped; what it writes to stderr is collected. */
export function spawnNode(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): { readonly child: ChildProcessWithoutNullStreams; readonly stderr: StderrText } {
  const child = spawn(process.execPath, [...args], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stderr = new StderrText();
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr.add(text);
  });
  return { child, stderr };
}
