/** `memoized`: each key is computed once while remembered; a full memo starts over. */
import { describe, expect, test } from 'vitest';
import { memoized } from '../../src/cli/memo.js';

function counting(size: number) {
  const computed: string[] = [];
  const upper = memoized((key) => {
    computed.push(key);
    return key.toUpperCase();
  }, size);
  return { upper, computed };
}

describe('memoized', () => {
  test('a repeated key is computed once and answers the same', () => {
    const { upper, computed } = counting(4);
    expect(['a', 'b', 'a', 'b', 'a'].map(upper)).toEqual(['A', 'B', 'A', 'B', 'A']);
    expect(computed).toEqual(['a', 'b']);
  });

  test('holding `size` keys it remembers them all; one more starts over', () => {
    const { upper, computed } = counting(2);
    upper('a');
    upper('b');
    upper('a'); // two keys held: still remembered
    upper('c'); // full: forgets a and b, keeps c
    upper('c');
    upper('a');
    expect(computed).toEqual(['a', 'b', 'c', 'a']);
  });
});
