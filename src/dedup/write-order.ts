/**
 * The order in which a memory store wrote its entries, oldest first: what it sweeps for expiry and
 * evicts from when full.
 */

/** Dropped positions a queue holds at its old end before it moves its items down. */
const SHIFT_AFTER = 1024;
/** Positions beyond twice the live ones a queue may hold before it counts as sparse. */
const SPARSE_SLACK = 1024;

/**
 * A first-in first-out queue: O(1) amortized to add at the new end and to drop at the old end. (A
 * Map is insertion-ordered too, but reading its oldest entry after many deletions walks every
 * deleted slot until V8 rehashes.)
 */
export class Queue<T> {
  #items: (T | undefined)[] = [];
  #head = 0;

  /** Items in the queue. */
  get length(): number {
    return this.#items.length - this.#head;
  }

  /** The `i`-th oldest item; `undefined` past the end. */
  at(i: number): T | undefined {
    return this.#items[this.#head + i];
  }

  push(item: T): void {
    this.#items.push(item);
  }

  /** Forgets the oldest item (the slot is emptied, so the item is not kept alive). */
  dropOldest(): void {
    this.#items[this.#head++] = undefined;
    if (this.#head >= SHIFT_AFTER && this.#head * 2 >= this.#items.length) this.keepOnly(() => true);
  }

  /** Keeps only the items at the positions `keep` accepts, in order. */
  keepOnly(keep: (i: number) => boolean): void {
    const items: (T | undefined)[] = [];
    for (let i = 0; i < this.length; i++) if (keep(i)) items.push(this.at(i));
    this.#items = items;
    this.#head = 0;
  }

  /**
   * Whether the queue holds more than twice `live` positions plus 1024: then it is compacted, so
   * dropped positions behind a long-lived one never pile up.
   */
  isSparse(live: number): boolean {
    return this.length > 2 * live + SPARSE_SLACK;
  }
}
