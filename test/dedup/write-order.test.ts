import { describe, expect, test } from 'vitest';
import { Queue } from '../../src/dedup/write-order.js';

/** A queue of 0 … n − 1, oldest first. */
function filled(n: number): Queue<number> {
  const queue = new Queue<number>();
  for (let i = 0; i < n; i++) queue.push(i);
  return queue;
}

const items = (queue: Queue<number>): (number | undefined)[] =>
  Array.from({ length: queue.length }, (_, i) => queue.at(i));

describe('Queue (a memory store write order)', () => {
  test('first in, first out; past the end is undefined', () => {
    const queue = filled(3);
    expect([queue.length, queue.at(0), queue.at(2), queue.at(3)]).toEqual([3, 0, 2, undefined]);
    queue.dropOldest();
    expect(items(queue)).toEqual([1, 2]);
    queue.dropOldest();
    queue.dropOldest();
    expect([queue.length, queue.at(0)]).toEqual([0, undefined]);
  });

  test('keeps order through thousands of drops and pushes (the old end moves down as it goes)', () => {
    const queue = filled(5000);
    for (let i = 0; i < 4000; i++) {
      queue.dropOldest();
      queue.push(5000 + i);
    }
    expect(queue.length).toBe(5000);
    expect(items(queue)).toEqual(Array.from({ length: 5000 }, (_, i) => 4000 + i));
  });

  test('keeps order when it grows with its old end part-way along', () => {
    const queue = filled(16);
    for (let i = 0; i < 10; i++) queue.dropOldest();
    for (let i = 16; i < 40; i++) queue.push(i);
    expect(items(queue)).toEqual(Array.from({ length: 30 }, (_, i) => 10 + i));
  });

  test('dropping from an empty queue leaves it empty', () => {
    const queue = filled(1);
    queue.dropOldest();
    queue.dropOldest();
    queue.push(7);
    expect(items(queue)).toEqual([7]);
  });

  test('keepOnly keeps the accepted positions, in order', () => {
    const queue = filled(10);
    queue.dropOldest();
    queue.keepOnly((i) => i % 3 === 0);
    expect(items(queue)).toEqual([1, 4, 7]);
  });

  test('is sparse past twice the live positions plus 1024, not at it', () => {
    const queue = filled(2 * 3 + 1024);
    expect([queue.isSparse(3), queue.isSparse(2)]).toEqual([false, true]);
    queue.push(0);
    expect(queue.isSparse(3)).toBe(true);
  });
});
