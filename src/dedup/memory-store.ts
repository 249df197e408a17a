/**
 * The in-process dedup store: per channel, one map from event key to its lease in flight or its
 * handled mark, O(1) per key, bounded by `maxEntries`, expiring by an injectable clock. One agent
 * process, or tests.
 */
import { BuzzMetaError } from '../errors.js';
import type {
  DedupClaimAnswer,
  DedupClaimRequest,
  DedupCommitRequest,
  DedupStore,
  DedupStoreRequest,
} from './types.js';

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
/** Slots a write order starts with (a power of two). */
const FIRST_CAPACITY = 64;
/** Dropped positions a write order may hold beyond twice its live ones before it is compacted. */
const COMPACT_SLACK = 1024;

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

/**
 * A first-in first-out ring, O(1) to add at the new end and to drop at the old end, growing by
 * doubling. (A Map is insertion-ordered too, but iterating it from the front after many deletions
 * walks every deleted slot until V8 rehashes.)
 */
class Ring<T> {
  // Stryker disable next-line ArrayDeclaration: a slot is read only below `length`, and every such slot was written first
  private items: (T | undefined)[] = [];
  private mask = FIRST_CAPACITY - 1;
  private head = 0;
  length = 0;

  push(item: T): void {
    // Stryker disable next-line ConditionalExpression: compacting on every push keeps the same items in the same order, only in O(n) per push
    if (this.length === this.mask + 1) this.compact(() => true);
    this.items[(this.head + this.length) & this.mask] = item;
    this.length++;
  }

  /** The `i`-th oldest item; `undefined` past the end (slots not in use are always emptied). */
  at(i: number): T | undefined {
    return this.items[(this.head + i) & this.mask];
  }

  /** Forgets the oldest item. */
  dropOldest(): void {
    this.items[this.head] = undefined;
    this.head = (this.head + 1) & this.mask;
    this.length--;
  }

  /**
   * Keeps only the items at the positions `keep` says, in order, in a ring with room for more (the
   * smallest power of two above their number). Also how a full ring grows.
   */
  compact(keep: (i: number) => boolean): void {
    const items: (T | undefined)[] = [];
    for (let i = 0; i < this.length; i++) if (keep(i)) items.push(this.at(i));
    let capacity = FIRST_CAPACITY;
    while (capacity <= items.length) capacity *= 2;
    this.items = items;
    this.mask = capacity - 1;
    this.head = 0;
    this.length = items.length;
  }
}

/** The write order of handled marks: (bucket, key, expiry) in three rings moved together. */
class MarkOrder {
  readonly buckets = new Ring<Bucket>();
  readonly keys = new Ring<string>();
  readonly expiries = new Ring<number>();

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
    // Stryker disable next-line ConditionalExpression,LogicalOperator: positions below `length` are never empty; the checks are for the type checker
    return bucket !== undefined && key !== undefined && bucket.entries.get(key) === this.expiries.at(i);
  }

  /** Drops every position that is not current. */
  compact(): void {
    const current = Array.from({ length: this.length }, (_, i) => this.isCurrent(i));
    const keep = (i: number): boolean => current[i] === true;
    this.buckets.compact(keep);
    this.keys.compact(keep);
    this.expiries.compact(keep);
  }
}

/** What a memory store holds beyond its entries: write-order positions and channel buckets. */
export interface MemoryStoreInternals {
  /** Positions in the leases' write order, settled ones not yet dropped included. */
  readonly leases: number;
  /** Positions in the marks' write order, dropped ones not yet passed included. */
  readonly marks: number;
  /** Channels with at least one entry. */
  readonly channels: number;
}

const internals = new WeakMap<DedupStore, () => MemoryStoreInternals>();

/**
 * The sizes of a memory store's bookkeeping; `undefined` for any other store. Internal (not
 * exported by the package): tests pin that the write orders stay within twice the live entries
 * plus a constant, and that emptied channels are forgotten.
 */
export function memoryStoreInternalsOf(store: DedupStore): MemoryStoreInternals | undefined {
  return internals.get(store)?.();
}

function expiryOf(entry: Entry): number {
  return typeof entry === 'number' ? entry : entry.expiresAt;
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
  // Stryker disable next-line ArithmeticOperator: `+ epoch` shifts every time alike; only the magnitude (Smi or not) tells
  const now = (): number => Math.ceil(clock() - epoch);
  const scopes = new Map<string, Bucket>();
  const leaseOrder = new Ring<Lease>();
  const markOrder = new MarkOrder();
  let leaseCount = 0;
  let markCount = 0;

  /** The channel's bucket, made when missing. */
  function bucketFor(scope: string): Bucket {
    let bucket = scopes.get(scope);
    if (bucket === undefined) {
      bucket = { scope, entries: new Map() };
      scopes.set(scope, bucket);
    }
    return bucket;
  }

  /** Counts `entry` out (a lease stops being held). */
  function forget(entry: Entry): void {
    if (typeof entry === 'number') {
      markCount--;
    } else {
      entry.held = false;
      leaseCount--;
    }
  }

  /** Deletes `key` (holding `entry`) from `bucket`; drops the bucket when it empties. */
  function remove(bucket: Bucket, key: string, entry: Entry): void {
    bucket.entries.delete(key);
    forget(entry);
    if (bucket.entries.size === 0) scopes.delete(bucket.scope);
  }

  /** What `key` holds in `bucket` now, dropping it when expired. */
  function live(bucket: Bucket, key: string, at: number): Entry | undefined {
    const entry = bucket.entries.get(key);
    if (entry === undefined || expiryOf(entry) > at) return entry;
    remove(bucket, key, entry);
    return undefined;
  }

  /**
   * After a lease is written: drops settled leases and sweeps a few expired ones from the old end,
   * evicts the oldest beyond `maxEntries`, and compacts the order when settled leases behind a
   * long-held one outnumber the live ones by much.
   */
  function sweepLeases(at: number): void {
    for (let budget = SWEEP_PER_WRITE; budget > 0; budget--) {
      const lease = leaseOrder.at(0);
      // Stryker disable next-line ConditionalExpression: never empty here (the lease just written is held and not yet due)
      if (lease === undefined || (lease.held && lease.expiresAt > at)) break;
      leaseOrder.dropOldest();
      if (lease.held) remove(lease.bucket, lease.key, lease);
    }
    // The sweep above left a held lease at the old end, so this drops (at most) that one.
    while (leaseCount > maxEntries) {
      const lease = leaseOrder.at(0);
      // Stryker disable next-line ConditionalExpression: every held lease has a position, so more leases than the bound means one is there
      if (lease === undefined) break;
      leaseOrder.dropOldest();
      // Stryker disable next-line ConditionalExpression: it is held (see above); the check keeps a settled position from deleting a newer entry
      if (lease.held) remove(lease.bucket, lease.key, lease);
    }
    // Stryker disable next-line OptionalChaining: compact asks only for positions below `length`, which are never empty
    if (leaseOrder.length > 2 * leaseCount + COMPACT_SLACK) leaseOrder.compact((i) => leaseOrder.at(i)?.held === true);
  }

  /**
   * After a mark is written: sweeps a few expired marks from the old end (the expiry is kept in the
   * order, so a mark not yet due costs no map lookup), evicts the oldest beyond `maxEntries`, and
   * compacts the order when dropped positions outnumber the live ones by much.
   */
  function sweepMarks(at: number): void {
    for (let budget = SWEEP_PER_WRITE; budget > 0; budget--) {
      const expiresAt = markOrder.expiries.at(0);
      // Stryker disable next-line ConditionalExpression: never empty here (the mark just written is not yet due)
      if (expiresAt === undefined || expiresAt > at) break;
      dropOldestMark();
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator: every mark has a position, so the order is never empty here
    while (markCount > maxEntries && markOrder.length > 0) dropOldestMark();
    if (markOrder.length > 2 * markCount + COMPACT_SLACK) markOrder.compact();
  }

  /** Drops the oldest position of the marks' order, and its mark when the key still holds it. */
  function dropOldestMark(): void {
    const current = markOrder.isCurrent(0);
    const bucket = markOrder.buckets.at(0);
    const key = markOrder.keys.at(0);
    const expiresAt = markOrder.expiries.at(0);
    markOrder.dropOldest();
    // Stryker disable next-line ConditionalExpression: a current position is never empty; the checks are for the type checker
    if (current && bucket !== undefined && key !== undefined && expiresAt !== undefined) remove(bucket, key, expiresAt);
  }

  /** Writes a handled mark over what `key` holds (nothing, our lease, or an expired entry). */
  function mark(scope: string, key: string, held: Entry | undefined, expiresAt: number, at: number): void {
    const bucket = bucketFor(scope);
    if (held !== undefined) forget(held);
    markCount++;
    bucket.entries.set(key, expiresAt);
    markOrder.push(bucket, key, expiresAt);
    sweepMarks(at);
  }

  const store: MemoryStore = {
    get size(): number {
      return leaseCount + markCount;
    },
    claim(request: DedupClaimRequest): Promise<readonly DedupClaimAnswer[]> {
      const at = now();
      const { scope, ids, token } = request;
      const expiresAt = at + request.leaseMs;
      const result: DedupClaimAnswer[] = [];
      for (const id of ids) {
        const found = scopes.get(scope);
        const entry = found === undefined ? undefined : live(found, id, at);
        if (entry === undefined) {
          // Looked up again: an expired entry just removed may have emptied (and so dropped) the bucket.
          const bucket = bucketFor(scope);
          const lease: Lease = { token, expiresAt, bucket, key: id, held: true };
          bucket.entries.set(id, lease);
          leaseCount++;
          leaseOrder.push(lease);
          sweepLeases(at);
          result.push(true);
        } else {
          result.push(typeof entry === 'number' ? 'handled' : 'held');
        }
      }
      return Promise.resolve(result);
    },
    commit(request: DedupCommitRequest): Promise<void> {
      const at = now();
      const { scope, ids, token } = request;
      const expiresAt = at + request.ttlMs;
      for (const id of ids) {
        const held = scopes.get(scope)?.entries.get(id);
        // Free, our lease (live or lapsed), or an expired entry of anyone: the key is ours to mark.
        // Otherwise another claim's live lease, or a live handled mark: not ours to overwrite.
        // Stryker disable next-line ConditionalExpression,StringLiteral: a mark is a number, whose `.token` is undefined, never a token
        if (held === undefined || (typeof held !== 'number' && held.token === token) || expiryOf(held) <= at) {
          mark(scope, id, held, expiresAt, at);
        }
      }
      return Promise.resolve();
    },
    release(request: DedupStoreRequest): Promise<void> {
      const { scope, ids, token } = request;
      for (const id of ids) {
        const held = scopes.get(scope)?.entries.get(id);
        // Stryker disable next-line ConditionalExpression,StringLiteral: a mark is a number, whose `.token` is undefined, never a token
        if (held !== undefined && typeof held !== 'number' && held.token === token) remove(held.bucket, id, held);
      }
      return Promise.resolve();
    },
  };
  internals.set(store, () => ({ leases: leaseOrder.length, marks: markOrder.length, channels: scopes.size }));
  return store;
}
