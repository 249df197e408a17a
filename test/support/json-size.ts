/**
 * Independent counts over a JSON tree, for tests of the size bounds (not the reader's own walk).
 *
 * @packageDocumentation
 */

/** Values in a JSON tree (an independent count: containers, scalars and strings, not keys). */
export function countValues(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((sum: number, item) => sum + countValues(item), 0);
  if (typeof value === 'object' && value !== null) {
    return 1 + Object.values(value).reduce((sum: number, item) => sum + countValues(item), 0);
  }
  return 1;
}

/** Summed `.length` of every string and key in a JSON tree. */
export function totalLength(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + totalLength(item), 0);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).reduce((sum: number, [key, item]) => sum + key.length + totalLength(item), 0);
  }
  return 0;
}
