/**
 * The in-process dedup store: two insertion-ordered maps (leases in flight, handled marks), O(1)
 * per key, bounded by `maxEntries`, expiring by an injectable clock. One agent process, or tests.
 */
import { BuzzMetaError } from '../errors.js';
import type { DedupClaimRequest, DedupCommitRequest, DedupStore, DedupStoreRequest } from './types.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * Most keys remembered (leases and handled marks each); when full, the oldest written goes
   * first, so an evicted event may be handled again. Default 100 000.
   */
  readonly maxEntries?: number;
  /** Clock in ms (default `Date.now`); inject one to test expiry. */
  readonly now?: () => number;
}

/** A {@link DedupStore} kept in this process. */
export interface MemoryStore extends DedupStore {
  /** Keys remembered now (leases plus handled marks, expired ones not yet swept included). */
  readonly size: number;
}

const DEFAULT_MAX_ENTRIES = 100_000;
/** Expired entries at the old end swept per write: amortized O(1), and the maps never hold garbage for long. */
const SWEEP_PER_WRITE = 2;

interface Lease {
  readonly token: string;
  readonly expiresAt: number;
}

/**
 * Creates an in-memory {@link DedupStore}. Handled marks are stored as their expiry time only
 * (a number), so a remembered id costs its key string and a map slot.
 *
 * @example
 * ```ts
 * const deduper = createDeduper({ store: createMemoryStore({ maxEntries: 50_000 }) });
 * ```
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw BuzzMetaError.of('invalid_option', '/maxEntries', 'maxEntries must be a positive safe integer.');
  }
  const now = options.now ?? Date.now;
  // Key: scope + '\n' + id (a channel id never contains a newline).
  const leases = new Map<string, Lease>();
  const handled = new Map<string, number>();

  /** Drops expired entries from the old end, then the oldest while over the bound. */
  function sweep<V>(map: Map<string, V>, expiryOf: (value: V) => number, at: number): void {
    let budget = SWEEP_PER_WRITE;
    for (const [key, value] of map) {
      if (budget-- === 0 || expiryOf(value) > at) break;
      map.delete(key);
    }
    while (map.size > maxEntries) {
      const oldest = map.keys().next();
      if (oldest.done === true) break;
      map.delete(oldest.value);
    }
  }
  const leaseExpiry = (lease: Lease): number => lease.expiresAt;
  const markExpiry = (expiresAt: number): number => expiresAt;

  /** Whether `key` holds a live handled mark or lease, dropping expired ones on the way. */
  function isTaken(key: string, at: number): boolean {
    const mark = handled.get(key);
    if (mark !== undefined) {
      if (mark > at) return true;
      handled.delete(key);
    }
    const lease = leases.get(key);
    if (lease !== undefined) {
      if (lease.expiresAt > at) return true;
      leases.delete(key);
    }
    return false;
  }

  return {
    get size(): number {
      return leases.size + handled.size;
    },
    claim(request: DedupClaimRequest): Promise<readonly boolean[]> {
      const at = now();
      const lease: Lease = { token: request.token, expiresAt: at + request.leaseMs };
      const result = request.ids.map((id) => {
        const key = `${request.scope}\n${id}`;
        if (isTaken(key, at)) return false;
        leases.set(key, lease);
        return true;
      });
      sweep(leases, leaseExpiry, at);
      return Promise.resolve(result);
    },
    commit(request: DedupCommitRequest): Promise<void> {
      const at = now();
      const expiresAt = at + request.ttlMs;
      for (const id of request.ids) {
        const key = `${request.scope}\n${id}`;
        if (leases.get(key)?.token === request.token) leases.delete(key);
        // Another claim's live lease, or a live handled mark: not ours to overwrite.
        if (isTaken(key, at)) continue;
        handled.set(key, expiresAt);
      }
      sweep(handled, markExpiry, at);
      return Promise.resolve();
    },
    release(request: DedupStoreRequest): Promise<void> {
      for (const id of request.ids) {
        const key = `${request.scope}\n${id}`;
        if (leases.get(key)?.token === request.token) leases.delete(key);
      }
      return Promise.resolve();
    },
  };
}
