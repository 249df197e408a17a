/**
 * A memo for pure functions of strings whose arguments repeat (the senders of a capture): at most
 * `size` results are kept, and when full it starts over, which keeps memory bounded without the
 * bookkeeping of an LRU.
 */

/** `compute` with its last results remembered (at most `size` of them). */
export function memoized(compute: (key: string) => string, size: number): (key: string) => string {
  const results = new Map<string, string>();
  return (key) => {
    let result = results.get(key);
    if (result === undefined) {
      result = compute(key);
      if (results.size >= size) results.clear();
      results.set(key, result);
    }
    return result;
  };
}
