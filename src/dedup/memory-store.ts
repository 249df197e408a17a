/**
 * The in-process dedup store: per channel, insertion-ordered maps of leases in flight and handled
 * marks, O(1) per key, bounded by `maxEntries`, expiring by an injectable clock. One agent
 * process, or tests.
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
const SWEEP_PER_WRITE = 4;

interface Lease {
  readonly token: string;
  readonly expiresAt: number;
}

/** The entries of one channel. Keyed by the event key itself: no key string is built per call. */
interface Bucket<V> {
  readonly scope: string;
  readonly entries: Map<string, V>;
}

/**
 * Entries of every channel with expiry times, bounded, in write order. A Map is insertion-ordered
 * too, but iterating it from the front after many deletions walks every deleted slot until V8
 * rehashes, so the write order is kept in two arrays instead (bucket, key): O(1) to find the
 * oldest, O(1) amortized to drop it.
 */
class ExpiringEntries<V> {
  private readonly buckets = new Map<string, Bucket<V>>();
  private orderBuckets: (Bucket<V> | undefined)[] = [];
  private orderKeys: (string | undefined)[] = [];
  private head = 0;
  size = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly expiryOf: (value: V) => number,
  ) {}

  /** The channel's entries, if it has any. */
  bucket(scope: string): Bucket<V> | undefined {
    return this.buckets.get(scope);
  }

  /** Deletes `key` from `bucket`; drops the bucket when it empties. */
  delete(bucket: Bucket<V>, key: string): void {
    if (!bucket.entries.delete(key)) return;
    this.size--;
    if (bucket.entries.size === 0 && this.buckets.get(bucket.scope) === bucket) this.buckets.delete(bucket.scope);
  }

  /** Adds a key the channel does not hold (the caller checked), then sweeps and bounds. */
  add(scope: string, key: string, value: V, at: number): void {
    let bucket = this.buckets.get(scope);
    if (bucket === undefined) {
      bucket = { scope, entries: new Map() };
      this.buckets.set(scope, bucket);
    }
    bucket.entries.set(key, value);
    this.size++;
    this.orderBuckets.push(bucket);
    this.orderKeys.push(key);
    this.sweep(at);
  }

  private sweep(at: number): void {
    for (let budget = SWEEP_PER_WRITE; budget > 0 && this.head < this.orderKeys.length; budget--) {
      const bucket = this.orderBuckets[this.head];
      const key = this.orderKeys[this.head];
      if (bucket === undefined || key === undefined) break;
      const value = bucket.entries.get(key);
      if (value !== undefined && this.expiryOf(value) > at) break;
      this.dropOldest();
      if (value !== undefined) this.delete(bucket, key);
    }
    while (this.size > this.maxEntries && this.head < this.orderKeys.length) {
      const bucket = this.orderBuckets[this.head];
      const key = this.orderKeys[this.head];
      this.dropOldest();
      if (bucket !== undefined && key !== undefined) this.delete(bucket, key);
    }
    // Keys deleted by other means (settled leases) stay in the order until swept; never let them
    // outnumber the live ones by much.
    if (this.orderKeys.length - this.head > 2 * this.size + 1024) this.rebuildOrder();
  }

  /** Forgets the oldest position of the write order (amortized O(1): the front is cut off in halves). */
  private dropOldest(): void {
    this.orderBuckets[this.head] = undefined;
    this.orderKeys[this.head] = undefined;
    this.head++;
    if (this.head >= 1024 && this.head * 2 >= this.orderKeys.length) {
      this.orderBuckets = this.orderBuckets.slice(this.head);
      this.orderKeys = this.orderKeys.slice(this.head);
      this.head = 0;
    }
  }

  /** Rebuilds the write order from the live entries (channel by channel, each in write order). */
  private rebuildOrder(): void {
    this.orderBuckets = [];
    this.orderKeys = [];
    this.head = 0;
    for (const bucket of this.buckets.values()) {
      for (const key of bucket.entries.keys()) {
        this.orderBuckets.push(bucket);
        this.orderKeys.push(key);
      }
    }
  }
}

/**
 * Creates an in-memory {@link DedupStore}. Handled marks are stored as their expiry time only
 * (a number) under the event key string the context already holds, so a remembered id costs
 * that string, a map slot and its place in the write order.
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
  const clock = options.now ?? Date.now;
  // Times are kept relative to the store's creation: they stay small integers (V8 Smis, stored in
  // the map slot itself) for weeks, where absolute ms would each be a boxed 16-byte number.
  const epoch = clock();
  const now = (): number => Math.ceil(clock() - epoch);
  const leases = new ExpiringEntries<Lease>(maxEntries, (lease) => lease.expiresAt);
  const handled = new ExpiringEntries<number>(maxEntries, (expiresAt) => expiresAt);

  /** Whether `key` holds a live handled mark or lease in `scope`, dropping expired ones on the way. */
  function isTaken(scope: string, key: string, at: number): boolean {
    const marks = handled.bucket(scope);
    const mark = marks?.entries.get(key);
    if (marks !== undefined && mark !== undefined) {
      if (mark > at) return true;
      handled.delete(marks, key);
    }
    const held = leases.bucket(scope);
    const lease = held?.entries.get(key);
    if (held !== undefined && lease !== undefined) {
      if (lease.expiresAt > at) return true;
      leases.delete(held, key);
    }
    return false;
  }

  return {
    get size(): number {
      return leases.size + handled.size;
    },
    claim(request: DedupClaimRequest): Promise<readonly boolean[]> {
      const at = now();
      const { scope, ids } = request;
      const lease: Lease = { token: request.token, expiresAt: at + request.leaseMs };
      const result: boolean[] = [];
      for (const id of ids) {
        const free = !isTaken(scope, id, at);
        if (free) leases.add(scope, id, lease, at);
        result.push(free);
      }
      return Promise.resolve(result);
    },
    commit(request: DedupCommitRequest): Promise<void> {
      const at = now();
      const { scope, ids, token } = request;
      const expiresAt = at + request.ttlMs;
      for (const id of ids) {
        const held = leases.bucket(scope);
        if (held !== undefined && held.entries.get(id)?.token === token) leases.delete(held, id);
        // Another claim's live lease, or a live handled mark: not ours to overwrite.
        if (isTaken(scope, id, at)) continue;
        handled.add(scope, id, expiresAt, at);
      }
      return Promise.resolve();
    },
    release(request: DedupStoreRequest): Promise<void> {
      const { scope, ids, token } = request;
      for (const id of ids) {
        const held = leases.bucket(scope);
        if (held !== undefined && held.entries.get(id)?.token === token) leases.delete(held, id);
      }
      return Promise.resolve();
    },
  };
}
