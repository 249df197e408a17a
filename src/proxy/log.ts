/**
 * The proxy's own log: one line per event on stderr (stdout is the protocol), prefixed so it
 * stands apart from the agent's stderr, which the proxy passes through. No level ever prints
 * prompt text, message content or keys: lines name request ids, codes, counts and byte sizes.
 */

/** How much the proxy says: `quiet` only faults, `info` (default) also each prompt it answers itself, `debug` every prompt. */
export type LogLevel = 'quiet' | 'info' | 'debug';

/** Where the proxy's lines go. */
export interface ProxyLog {
  /** A fault: bad agent output, a failed store, the agent exiting. Printed at every level. */
  fault(message: string): void;
  /** A prompt the proxy answered itself, a removed `_meta.buzzContext`. */
  info(message: string): void;
  /** Each prompt forwarded, with its trust and event count. */
  debug(message: string): void;
}

const RANK: Readonly<Record<LogLevel, number>> = { quiet: 0, info: 1, debug: 2 };

/** A log at `level` that writes each line with `write`. */
export function createLog(level: LogLevel, write: (text: string) => void): ProxyLog {
  const line = (message: string) => {
    write(`buzz-meta proxy: ${message}\n`);
  };
  const rank = RANK[level];
  return {
    fault: line,
    info: rank >= RANK.info ? line : () => undefined,
    debug: rank >= RANK.debug ? line : () => undefined,
  };
}
