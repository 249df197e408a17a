/**
 * `buzz-meta proxy`: its options as the command line gives them, checked into the proxy's options
 * (a bad one is one line on stderr and exit code 2, before the agent starts), then the proxy run
 * on this process's stdio. Loaded only by this subcommand.
 */
import { BuzzMetaError } from '../errors.js';
import { prefixOf } from '../keys.js';
import type { BuzzLimits } from '../limits.js';
import type { Trust } from '../context.js';
import { createMemoryStore } from '../dedup/memory-store.js';
import type { LogLevel } from '../proxy/log.js';
import { type ProxyIo, type ProxyOptions, runProxy } from '../proxy/run.js';
import type { GivenKey } from './agent-key.js';
import { CliError } from './cli-error.js';

/** The options of `buzz-meta proxy` as commander parses them. */
export interface ProxyCommandOptions {
  readonly agentPubkey?: string;
  readonly minTrust?: Trust;
  readonly missing: 'pass' | 'refuse';
  /** `false` with `--no-scrape`. */
  readonly scrape: boolean;
  readonly limits?: string;
  readonly dedup?: string;
  readonly dedupPrefix?: string;
  readonly dedupFailClosed?: boolean;
  readonly keyPrefix?: string;
  readonly dropBuzz?: boolean;
  readonly record?: string;
  readonly passThrough?: boolean;
  readonly maxLineBytes: string;
  readonly logLevel: LogLevel;
}

function limitsOf(text: string | undefined): Partial<BuzzLimits> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliError('--limits: not JSON (give an object, e.g. \'{"maxEvents":20}\')');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError('--limits: not a JSON object');
  }
  return value;
}

function lineBytesOf(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1024) {
    throw new CliError('--max-line-bytes: a whole number of bytes, at least 1024');
  }
  return value;
}

/** The store `--dedup` names, with how to close its connection. */
async function storeOf(spec: string | undefined, prefix: string | undefined): Promise<ProxyOptions['dedup']> {
  if (spec === undefined) {
    if (prefix !== undefined) throw new CliError('--dedup-prefix needs --dedup redis://…');
    return undefined;
  }
  if (spec === 'memory') {
    if (prefix !== undefined) throw new CliError('--dedup-prefix applies to a Redis store only');
    return { store: createMemoryStore() };
  }
  if (!spec.startsWith('redis://') && !spec.startsWith('rediss://')) {
    throw new CliError('--dedup: "memory" or a redis:// (rediss://) URL');
  }
  let redis: typeof import('redis');
  try {
    redis = await import('redis');
  } catch {
    throw new CliError('--dedup redis://… needs the redis package next to buzz-meta (npm install redis)');
  }
  const { createRedisStore } = await import('../dedup/redis-store.js');
  // No offline queue: calls fail at once while Redis is down, and the deduper's policy applies.
  const client = redis.createClient({ url: spec, disableOfflineQueue: true });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch {
    throw new CliError('--dedup: cannot connect to the Redis server');
  }
  const store = createRedisStore({ client, ...(prefix === undefined ? {} : { prefix }) });
  return {
    store,
    close: async () => {
      await client.close();
    },
  };
}

/** Checks the options, runs the proxy on `io` (the process's stdio), returns the agent's exit code. */
export async function proxyCommand(
  agent: readonly string[],
  options: ProxyCommandOptions,
  key: GivenKey | undefined,
  io: ProxyIo,
): Promise<number> {
  const [command, ...args] = agent;
  if (command === undefined || command === '') throw new CliError('proxy needs the agent command after --');
  try {
    prefixOf(options.keyPrefix === undefined ? undefined : { prefix: options.keyPrefix });
  } catch {
    throw new CliError('--key-prefix: 1–64 letters, digits, "_", ".", ":" or "-"');
  }
  const passThrough = options.passThrough === true;
  const base = {
    command,
    args,
    passThrough,
    agentPubkey: key?.key,
    minTrust: options.minTrust,
    missing: options.missing,
    scrape: options.scrape,
    limits: limitsOf(options.limits),
    keyPrefix: options.keyPrefix,
    keepBuzz: options.dropBuzz !== true,
    record: options.record,
    maxLineBytes: lineBytesOf(options.maxLineBytes),
    logLevel: options.logLevel,
  };
  if (options.dedupFailClosed === true && options.dedup === undefined) {
    throw new CliError('--dedup-fail-closed needs --dedup');
  }
  const store = passThrough ? undefined : await storeOf(options.dedup, options.dedupPrefix);
  const dedup = store === undefined ? undefined : { ...store, failClosed: options.dedupFailClosed === true };
  try {
    return await runProxy({ ...base, dedup }, io);
  } catch (error) {
    await dedup?.close?.().catch(() => undefined);
    // The reader refuses bad options (a key that is no npub, bad limits) before the agent starts.
    if (error instanceof BuzzMetaError) {
      // A bad key is named where it came from (the flag or the variable), as inspect names it.
      if (error.path === '/agentPubkey' && key !== undefined) throw new CliError(`${key.source}: ${error.reason}`);
      throw new CliError(`proxy: ${error.message}`);
    }
    throw error;
  }
}
