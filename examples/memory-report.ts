/**
 * What examples/memory-agent.ts answers, shared with the host that reads it (examples/demo.ts
 * and the tests), so that importing it does not start the agent.
 */

/** What the agent answers about one turn (the text of its message chunk, as JSON). */
export interface MemoryReport {
  readonly source: string;
  readonly trust: string;
  readonly channel: string;
  readonly sender: string | null;
  readonly fresh: readonly (string | null)[];
  readonly seen: readonly (string | null)[];
  readonly carried: readonly (string | null)[];
  /** After this turn: turns remembered for this channel and for this sender. */
  readonly memory: { readonly channelTurns: number; readonly senderTurns: number };
  readonly diagnostics: readonly string[];
}

/** Prompt text that makes the agent "think" until cancelled (a long model call, for the demo). */
export const LONG_TASK = '/long-task';
