/**
 * The order in which a memory store wrote its entries, oldest first: what it sweeps for expiry and
 * evicts from when full.
 */

/** Slots of a new queue; a full queue doubles them. */
const FIRST_CAPACITY = 16;
/** Positions beyond twice the live ones a queue may hold before it counts as sparse. */
const SPARSE_SLACK = 1024;

/** Empty slots for a ring of `capacity` (a power of two). */
function slots<T>(capacity: number): (T | undefined)[] {
  return new Array<T | undefined>(capacity).fill(undefined);
}

/**
 * A first-in first-out queue: O(1) amortized to add at the new end and to drop at the old end. A
 * ring of slots, so a queue that stays about as long reuses them instead of allocating. (A Map is
 * insertion-ordered too, but reading its oldest entry after many deletions walks every deleted
 * slot until V8 rehashes.)
 */
export class Queue<T> {
  #slots: (T | undefined)[] = slots(FIRST_CAPACITY);
  /** Where the oldest item sits. */
  #head = 0;
  #length = 0;

  /** Items in the queue. */
  get length(): number {
    return this.#length;
  }

  /** The `i`-th oldest item; `undefined` past the end. */
  at(i: number): T | undefined {
    if (i < 0 || i >= this.#length) return undefined;
    return this.#slots[(this.#head + i) & (this.#slots.length - 1)];
  }

  push(item: T): void {
    if (this.#length === this.#slots.length) this.#refill(2 * this.#slots.length, () => true);
    this.#slots[(this.#head + this.#length) & (this.#slots.length - 1)] = item;
    this.#length++;
  }

  /** Forgets the oldest item (the slot is emptied, so the item is not kept alive). */
  dropOldest(): void {
    if (this.#length === 0) return;
    this.#slots[this.#head] = undefined;
    this.#head = (this.#head + 1) & (this.#slots.length - 1);
    this.#length--;
  }

  /** Keeps only the items at the positions `keep` accepts, in order. */
  keepOnly(keep: (i: number) => boolean): void {
    this.#refill(FIRST_CAPACITY, keep);
  }

  /**
   * Whether the queue holds more than twice `live` positions plus 1024: then it is compacted, so
   * dropped positions behind a long-lived one never pile up.
   */
  isSparse(live: number): boolean {
    return this.#length > 2 * live + SPARSE_SLACK;
  }

  /** Moves the items `keep` accepts, in order, to fresh slots: at least `capacity`, as many as they need. */
  #refill(capacity: number, keep: (i: number) => boolean): void {
    const kept: (T | undefined)[] = [];
    for (let i = 0; i < this.#length; i++) if (keep(i)) kept.push(this.at(i));
    let size = capacity;
    while (size < kept.length) size *= 2;
    const to = slots<T>(size);
    for (const [i, item] of kept.entries()) to[i] = item;
    this.#slots = to;
    this.#head = 0;
    this.#length = kept.length;
  }
}
