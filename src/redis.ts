/**
 * `buzz-meta/redis`: the Redis dedup store, so every replica of an agent pool shares one memory
 * of what was handled. Takes a connected `redis` or `ioredis` client (optional peer dependencies).
 *
 * @packageDocumentation
 * @module buzz-meta/redis
 */
export { createRedisStore } from './dedup/redis-store.js';
export type { IoRedisScriptClient, NodeRedisScriptClient, RedisStoreOptions } from './dedup/redis-store.js';
