/**
 * The Redis dedup store (`buzz-meta/redis`): one Lua script per claim, commit or release, so each
 * is one round trip and atomic over all of a delivery's keys; TTLs are set by Redis itself. Works
 * with a connected client of the official `redis` package (5.x, 6.x) or of `ioredis`; neither is
 * imported here: the client is passed in, and only its script calls are used.
 */
import { createHash } from 'node:crypto';
import { BuzzMetaError } from '../errors.js';
import type {
  DedupClaimAnswer,
  DedupClaimRequest,
  DedupCommitRequest,
  DedupStore,
  DedupStoreRequest,
} from './types.js';

/**
 * The script calls of a `redis` (node-redis 5.x/6.x) client, cluster client included.
 *
 * @example
 * ```ts
 * import { createCluster } from 'redis'
 * import { createRedisStore, type NodeRedisScriptClient } from 'buzz-meta/redis'
 *
 * const rootNodes = [{ url: 'redis://10.0.0.1:6379' }]
 * const cluster = createCluster({ rootNodes, defaults: { disableOfflineQueue: true } })
 * await cluster.connect()
 * const client: NodeRedisScriptClient = cluster // a cluster client is one too
 * const store = createRedisStore({ client })
 * ```
 * @group Dedup
 */
export interface NodeRedisScriptClient {
  /** `EVALSHA sha numkeys keys… args…`. */
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** `EVAL script numkeys keys… args…`. */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/**
 * The script calls of an `ioredis` client (`Redis` or `Cluster`).
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis'
 * import { createRedisStore, type IoRedisScriptClient } from 'buzz-meta/redis'
 *
 * const client: IoRedisScriptClient = new Redis({ enableOfflineQueue: false })
 * const store = createRedisStore({ client })
 * ```
 * @group Dedup
 */
export interface IoRedisScriptClient {
  /** `EVALSHA sha numkeys keys… args…`. */
  evalsha(sha1: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  /** `EVAL script numkeys keys… args…`. */
  eval(script: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
}

/**
 * Options of {@link createRedisStore}.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis'
 * import { createRedisStore, type RedisStoreOptions } from 'buzz-meta/redis'
 *
 * const client = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1', disableOfflineQueue: true })
 * await client.connect()
 * const options: RedisStoreOptions = { client, prefix: 'my-agent:dedup:' }
 * const store = createRedisStore(options)
 * ```
 * @group Dedup
 */
export interface RedisStoreOptions {
  /**
   * A connected client: `createClient()` / `createCluster()` of `redis`, or an `ioredis` client.
   * Create it with `disableOfflineQueue: true` (redis) or `enableOfflineQueue: false` (ioredis),
   * so that calls fail at once while Redis is down instead of waiting, and the deduper's
   * `onStoreError` policy applies.
   */
  readonly client: NodeRedisScriptClient | IoRedisScriptClient;
  /** Prepended to every key; default `buzz:dedup:`. No `{` or `}` (the hash tag is the channel id). */
  readonly prefix?: string;
}

/** The value of a handled mark; a lease holds its claim's token, which is never empty. */
const HANDLED = '';

// KEYS: the delivery's keys; ARGV: token, lease ms. Per key 1 = claimed, 0 = handled, 2 = held.
const CLAIM = `local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('SET', key, ARGV[1], 'NX', 'PX', ARGV[2]) then out[i] = 1
  elseif redis.call('GET', key) == '${HANDLED}' then out[i] = 0
  else out[i] = 2 end
end
return out`;
// KEYS: the claim's keys; ARGV: token, ttl ms. A key held by this token, or free, becomes handled.
const COMMIT = `for _, key in ipairs(KEYS) do
  local held = redis.call('GET', key)
  if held == false or held == ARGV[1] then redis.call('SET', key, '${HANDLED}', 'PX', ARGV[2]) end
end
return 0`;
// KEYS: the claim's keys; ARGV: token. Only this token's leases are dropped.
const RELEASE = `for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0`;

interface Script {
  readonly text: string;
  readonly sha1: string;
}

function script(text: string): Script {
  return { text, sha1: createHash('sha1').update(text).digest('hex') };
}

const SCRIPTS = { claim: script(CLAIM), commit: script(COMMIT), release: script(RELEASE) } as const;

/** The claim script's answer for one key. */
function answerOf(reply: unknown): DedupClaimAnswer {
  if (reply === 1) return true;
  return reply === 0 ? 'handled' : 'held';
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/** Runs a script by its SHA1, loading it with EVAL the first time a server has not seen it. */
function runner(client: NodeRedisScriptClient | IoRedisScriptClient) {
  if ('evalSha' in client) {
    const redis = client;
    return async (s: Script, keys: string[], args: string[]): Promise<unknown> => {
      const options = { keys, arguments: args };
      try {
        return await redis.evalSha(s.sha1, options);
      } catch (error) {
        if (!isNoScript(error)) throw error;
        return redis.eval(s.text, options);
      }
    };
  }
  const io = client;
  return async (s: Script, keys: string[], args: string[]): Promise<unknown> => {
    try {
      return await io.evalsha(s.sha1, keys.length, ...keys, ...args);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return io.eval(s.text, keys.length, ...keys, ...args);
    }
  };
}

/**
 * Creates a {@link DedupStore} in Redis, shared by every process that uses the same Redis and
 * prefix. Keys are `<prefix>{<channel id>}:<event key>`: the hash tag puts all keys of one
 * delivery in one slot, so the same code runs on Redis Cluster or Valkey.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { createDeduper } from 'buzz-meta';
 * import { createRedisStore } from 'buzz-meta/redis';
 *
 * const client = await createClient({ url: process.env.REDIS_URL ?? 'redis://localhost:6379', disableOfflineQueue: true }).connect();
 * const deduper = createDeduper({ store: createRedisStore({ client }) });
 * ```
 * @group Dedup
 */
export function createRedisStore(options: RedisStoreOptions): DedupStore {
  const prefix = options.prefix ?? 'buzz:dedup:';
  if (prefix.includes('{') || prefix.includes('}')) {
    throw BuzzMetaError.of(
      'invalid_option',
      '/prefix',
      'prefix must not contain { or } (the channel id is the hash tag).',
    );
  }
  const run = runner(options.client);
  const keysOf = (request: DedupStoreRequest): string[] => {
    const { scope } = request;
    // The scope is the hash tag: empty, or with a brace, it would no longer keep one request's keys in one slot.
    if (scope === '' || scope.includes('{') || scope.includes('}')) {
      throw new TypeError('the scope is not a usable hash tag (empty, or with a brace)');
    }
    const head = `${prefix}{${scope}}:`;
    return request.ids.map((id) => head + id);
  };

  return {
    async claim(request: DedupClaimRequest): Promise<readonly DedupClaimAnswer[]> {
      const reply = await run(SCRIPTS.claim, keysOf(request), [request.token, String(request.leaseMs)]);
      if (!Array.isArray(reply)) throw new TypeError('the claim script answered with something other than a list');
      return reply.map(answerOf);
    },
    async commit(request: DedupCommitRequest): Promise<void> {
      await run(SCRIPTS.commit, keysOf(request), [request.token, String(request.ttlMs)]);
    },
    async release(request: DedupStoreRequest): Promise<void> {
      await run(SCRIPTS.release, keysOf(request), [request.token]);
    },
  };
}
