/**
 * The in-process dedup store: per channel, one map from event key to its lease in flight or its
 * handled mark, O(1) per key, bounded by `maxEntries`, expiring by an injectable clock. One agent
 * process, or tests.
 */
import { BuzzMetaError } from '../errors.js';
import { Queue } from './write-order.js';
import type {
  DedupClaimAnswer,
  DedupClaimRequest,
  DedupCommitRequest,
  DedupStore,
  DedupStoreRequest,
} from './types.js';

/**
 * Options of {@link createMemoryStore}.
 *
 * @example
 * ```ts
 * import { createMemoryStore, type MemoryStoreOptions } from 'buzz-meta'
 *
 * let now = 0 // a test clock: move it to expire leases and handled marks
 * const options: MemoryStoreOptions = { now: () => now, maxEntries: 1_000 }
 * const store = createMemoryStore(options)
 * now += 5 * 60_000
 * ```
 * @group Dedup
 */
export interface MemoryStoreOptions {
  /**
   * Most keys remembered (leases and handled marks each); when full, the oldest written goes
   * first, so an evicted event may be handled again. Default 100 000.
   */
  readonly maxEntries?: number;
  /** Clock in ms (default `Date.now`); inject one to test expiry. */
  readonly now?: () => number;
}

/**
 * A {@link DedupStore} kept in this process.
 *
 * @example
 * ```ts
 * import { createDeduper, createMemoryStore, type MemoryStore } from 'buzz-meta'
 *
 * const store: MemoryStore = createMemoryStore({ maxEntries: 10_000 })
 * const deduper = createDeduper({ store })
 * console.error(`${String(store.size)} keys remembered`)
 * ```
 * @group Dedup
 */
export interface MemoryStore extends DedupStore {
  /** Keys remembered now (leases plus handled marks, expired ones not yet swept included). */
  readonly size: number;
}

const DEFAULT_MAX_ENTRIES = 100_000;
/** Expired entries at the old end swept per write: amortized O(1), and the maps never hold garbage for long. */
const SWEEP_PER_WRITE = 4;

/** The entries of one channel. Keyed by the event key itself: no key string is built per call. */
interface Bucket {
  readonly scope: string;
  readonly entries: Map<string, Entry>;
}

/**
 * An in-flight lease of one key. It knows its key and whether it still holds it, so the write
 * order of leases finds settled ones without a map lookup.
 */
interface Lease {
  readonly token: string;
  readonly expiresAt: number;
  readonly bucket: Bucket;
  readonly key: string;
  /** False once the key no longer holds this lease (settled, expired, or evicted). */
  held: boolean;
}

/**
 * What a key holds: a lease, or a handled mark stored as its bare expiry time (a small integer, so
 * it lives in the map slot itself). One map per key: one lookup to claim, one to commit.
 */
type Entry = Lease | number;

/** The write order of handled marks: (bucket, key, expiry) in three queues moved together. */
class MarkOrder {
  readonly buckets = new Queue<Bucket>();
  readonly keys = new Queue<string>();
  readonly expiries = new Queue<number>();

  get length(): number {
    return this.keys.length;
  }

  push(bucket: Bucket, key: string, expiresAt: number): void {
    this.buckets.push(bucket);
    this.keys.push(key);
    this.expiries.push(expiresAt);
  }

  dropOldest(): void {
    this.buckets.dropOldest();
    this.keys.dropOldest();
    this.expiries.dropOldest();
  }

  /** Whether position `i` is still the mark its key holds (not dropped since, nor written again). */
  isCurrent(i: number): boolean {
    const bucket = this.buckets.at(i);
    const key = this.keys.at(i);
    return bucket !== undefined && key !== undefined && bucket.entries.get(key) === this.expiries.at(i);
  }

  /** Drops every position that is not current, once they outnumber the `live` marks by much. */
  compactIfSparse(live: number): void {
    if (!this.keys.isSparse(live)) return;
    const current = Array.from({ length: this.length }, (_, i) => this.isCurrent(i));
    const keep = (i: number): boolean => current[i] === true;
    this.buckets.keepOnly(keep);
    this.keys.keepOnly(keep);
    this.expiries.keepOnly(keep);
  }
}

function expiryOf(entry: Entry): number {
  return typeof entry === 'number' ? entry : entry.expiresAt;
}

/** Whether `entry` is a lease of the claim `token` (a mark is a number, and holds no token). */
function isLeaseOf(entry: Entry, token: string): entry is Lease {
  return typeof entry !== 'number' && entry.token === token;
}

/** A memory store's entries per channel and their write orders, with the counts of each kind. */
class MemoryEntries {
  readonly #scopes = new Map<string, Bucket>();
  readonly #leases = new Queue<Lease>();
  readonly #marks = new MarkOrder();
  #leaseCount = 0;
  #markCount = 0;

  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.#leaseCount + this.#markCount;
  }

  /** For each id: `true` and a new lease when the key holds nothing live, else what holds it. */
  claim(scope: string, ids: readonly string[], token: string, expiresAt: number, at: number): DedupClaimAnswer[] {
    const result: DedupClaimAnswer[] = [];
    for (const id of ids) {
      const found = this.#scopes.get(scope);
      const entry = found === undefined ? undefined : this.#live(found, id, at);
      if (entry !== undefined) {
        result.push(typeof entry === 'number' ? 'handled' : 'held');
        continue;
      }
      // An expired entry just removed may have emptied the bucket, and so dropped it: then a new one.
      const bucket = found !== undefined && found.entries.size > 0 ? found : this.#bucketFor(scope);
      const lease: Lease = { token, expiresAt, bucket, key: id, held: true };
      bucket.entries.set(id, lease);
      this.#leaseCount++;
      this.#leases.push(lease);
      this.#sweepLeases(at);
      result.push(true);
    }
    return result;
  }

  /** Marks each id handled where it holds nothing, this claim's lease (live or lapsed), or an expired entry. */
  commit(scope: string, ids: readonly string[], token: string, expiresAt: number, at: number): void {
    for (const id of ids) {
      const bucket = this.#scopes.get(scope);
      const held = bucket?.entries.get(id);
      // Otherwise another claim's live lease, or a live handled mark: not ours to overwrite.
      if (held === undefined || isLeaseOf(held, token) || expiryOf(held) <= at) {
        this.#mark(bucket ?? this.#bucketFor(scope), id, held, expiresAt, at);
      }
    }
  }

  /** Drops each id's lease where it holds this claim's. */
  release(scope: string, ids: readonly string[], token: string): void {
    for (const id of ids) {
      const held = this.#scopes.get(scope)?.entries.get(id);
      if (held !== undefined && isLeaseOf(held, token)) this.#remove(held.bucket, id, held);
    }
  }

  /** The channel's bucket, made when missing. */
  #bucketFor(scope: string): Bucket {
    let bucket = this.#scopes.get(scope);
    if (bucket === undefined) {
      bucket = { scope, entries: new Map() };
      this.#scopes.set(scope, bucket);
    }
    return bucket;
  }

  /** Counts `entry` out (a lease stops being held). */
  #forget(entry: Entry): void {
    if (typeof entry === 'number') {
      this.#markCount--;
    } else {
      entry.held = false;
      this.#leaseCount--;
    }
  }

  /** Deletes `key` (holding `entry`) from `bucket`; drops the bucket when it empties. */
  #remove(bucket: Bucket, key: string, entry: Entry): void {
    bucket.entries.delete(key);
    this.#forget(entry);
    if (bucket.entries.size === 0) this.#scopes.delete(bucket.scope);
  }

  /** What `key` holds in `bucket` now, dropping it when expired. */
  #live(bucket: Bucket, key: string, at: number): Entry | undefined {
    const entry = bucket.entries.get(key);
    if (entry === undefined || expiryOf(entry) > at) return entry;
    this.#remove(bucket, key, entry);
    return undefined;
  }

  /**
   * After a lease is written: drops settled leases and sweeps a few expired ones from the old end,
   * evicts the oldest beyond `maxEntries`, and compacts the order when settled leases behind a
   * long-held one outnumber the live ones by much.
   */
  #sweepLeases(at: number): void {
    for (let budget = SWEEP_PER_WRITE; budget > 0; budget--) {
      const lease = this.#leases.at(0);
      if (lease === undefined || (lease.held && lease.expiresAt > at)) break;
      this.#leases.dropOldest();
      if (lease.held) this.#remove(lease.bucket, lease.key, lease);
    }
    // The sweep above left a held lease at the old end, so this drops (at most) that one.
    while (this.#leaseCount > this.maxEntries) {
      const lease = this.#leases.at(0);
      if (lease === undefined) break;
      this.#leases.dropOldest();
      if (lease.held) this.#remove(lease.bucket, lease.key, lease);
    }
    if (this.#leases.isSparse(this.#leaseCount)) this.#leases.keepOnly((i) => this.#leases.at(i)?.held === true);
  }

  /** Writes a handled mark over what `key` holds in `bucket` (nothing, our lease, or an expired entry). */
  #mark(bucket: Bucket, key: string, held: Entry | undefined, expiresAt: number, at: number): void {
    if (held !== undefined) this.#forget(held);
    this.#markCount++;
    bucket.entries.set(key, expiresAt);
    this.#marks.push(bucket, key, expiresAt);
    this.#sweepMarks(at);
  }

  /**
   * After a mark is written: sweeps a few expired marks from the old end (the expiry is kept in the
   * order, so a mark not yet due costs no map lookup), evicts the oldest beyond `maxEntries`, and
   * compacts the order when dropped positions outnumber the live ones by much.
   */
  #sweepMarks(at: number): void {
    for (let budget = SWEEP_PER_WRITE; budget > 0; budget--) {
      const expiresAt = this.#marks.expiries.at(0);
      if (expiresAt === undefined || expiresAt > at) break;
      this.#dropOldestMark();
    }
    while (this.#markCount > this.maxEntries && this.#marks.length > 0) this.#dropOldestMark();
    this.#marks.compactIfSparse(this.#markCount);
  }

  /** Drops the oldest position of the marks' order, and its mark when the key still holds it. */
  #dropOldestMark(): void {
    const current = this.#marks.isCurrent(0);
    const bucket = this.#marks.buckets.at(0);
    const key = this.#marks.keys.at(0);
    const expiresAt = this.#marks.expiries.at(0);
    this.#marks.dropOldest();
    if (current && bucket !== undefined && key !== undefined && expiresAt !== undefined) {
      this.#remove(bucket, key, expiresAt);
    }
  }
}

/** Each memory store's own methods, to tell it from a wrapped or patched one. */
const ownMethods = new WeakMap<DedupStore, DedupStore>();

/**
 * Whether `store` is a memory store whose methods are still its own: then every call it makes has
 * settled (or thrown) by the time it returns.
 */
export function answersAtOnce(store: DedupStore): boolean {
  const own = ownMethods.get(store);
  if (own === undefined) return false;
  return store.claim === own.claim && store.commit === own.commit && store.release === own.release;
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
 * @group Dedup
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw BuzzMetaError.of('invalid_option', '/maxEntries', 'maxEntries must be a positive safe integer.');
  }
  const clock = options.now ?? Date.now;
  // Times relative to the store's creation stay small integers (stored in the map slot itself)
  // for weeks, where absolute ms would each be a boxed number.
  const epoch = clock();
  const now = (): number => Math.ceil(clock() - epoch);
  const entries = new MemoryEntries(maxEntries);
  const store: MemoryStore = {
    get size(): number {
      return entries.size;
    },
    claim({ scope, ids, token, leaseMs }: DedupClaimRequest): Promise<readonly DedupClaimAnswer[]> {
      const at = now();
      return Promise.resolve(entries.claim(scope, ids, token, at + leaseMs, at));
    },
    commit({ scope, ids, token, ttlMs }: DedupCommitRequest): Promise<void> {
      const at = now();
      entries.commit(scope, ids, token, at + ttlMs, at);
      return Promise.resolve();
    },
    release({ scope, ids, token }: DedupStoreRequest): Promise<void> {
      entries.release(scope, ids, token);
      return Promise.resolve();
    },
  };
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to compare, never called
  ownMethods.set(store, { claim: store.claim, commit: store.commit, release: store.release });
  return store;
}
