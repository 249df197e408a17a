/**
 * The first check on a received `_meta.buzz`, before the schema and before anything is hashed:
 * one walk that bounds nesting depth, the number of values visited, the keys of each object and
 * the summed length of every string (keys included). It reads
 * every value once per visit and stops at the first bound, so what a sender without the key can
 * make the reader do afterwards (schema, canonical JSON, hashing) is bounded by these limits and
 * linear in the size of the request. A value reached twice (an in-process graph sharing a
 * sub-object) counts twice, as canonical JSON would write it twice.
 */
import { BuzzMetaError } from '../errors.js';
import type { BuzzLimits } from '../limits.js';
import { type ContractKeys, safePointer } from './redact.js';
import { BUZZ_PATH } from './schema-kit.js';

/**
 * Walks `buzz` (the value of `_meta.buzz`) and returns the first bound it breaks, or `undefined`.
 * Every bound is `limit_exceeded`; its pointer shows only the keys in `contractKeys` (the keys of
 * the caller's dialect).
 */
export function checkInputBounds(
  buzz: unknown,
  limits: BuzzLimits,
  contractKeys: ContractKeys,
): BuzzMetaError | undefined {
  let nodes = 0;
  let length = 0;
  const path: (string | number)[] = [...BUZZ_PATH];
  const tooMuch = (message: string): BuzzMetaError =>
    BuzzMetaError.of('limit_exceeded', safePointer(BUZZ_PATH, contractKeys), message);
  const tooManyNodes = (): BuzzMetaError =>
    tooMuch(`_meta.buzz holds more than limits.maxNodes (${String(limits.maxNodes)}) values`);
  const addText = (text: string): BuzzMetaError | undefined => {
    length += text.length;
    return length > limits.maxTotalLength
      ? tooMuch(
          `_meta.buzz holds more than limits.maxTotalLength (${String(limits.maxTotalLength)}) UTF-16 units of strings`,
        )
      : undefined;
  };
  const visit = (value: unknown, depth: number): BuzzMetaError | undefined => {
    if (typeof value !== 'object' || value === null) return visitScalar(value);
    nodes++;
    if (nodes > limits.maxNodes) return tooManyNodes();
    if (depth > limits.maxDepth) {
      return BuzzMetaError.of(
        'limit_exceeded',
        safePointer(path, contractKeys),
        `value is nested more deeply than limits.maxDepth (${String(limits.maxDepth)}) allows`,
      );
    }
    if (Array.isArray(value)) {
      const items = value as readonly unknown[];
      for (let index = 0; index < items.length; index++) {
        const found = visitAt(index, items[index], depth + 1);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    const keys = Object.keys(value);
    if (keys.length > limits.maxObjectKeys) {
      return BuzzMetaError.of(
        'limit_exceeded',
        safePointer(path, contractKeys),
        `an object holds more than limits.maxObjectKeys (${String(limits.maxObjectKeys)}) keys`,
      );
    }
    for (const key of keys) {
      const found = addText(key) ?? visitAt(key, (value as Record<string, unknown>)[key], depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  /** A member at `key`; a scalar is counted without a path step, which only a nested value's error needs. */
  const visitAt = (key: string | number, member: unknown, depth: number): BuzzMetaError | undefined => {
    // The speed seam of the walk: forged deliveries are arrays of millions of scalars.
    if (typeof member !== 'object' || member === null) return visitScalar(member);
    path.push(key);
    const found = visit(member, depth);
    path.pop();
    return found;
  };
  const visitScalar = (member: unknown): BuzzMetaError | undefined => {
    nodes++;
    if (nodes > limits.maxNodes) return tooManyNodes();
    return typeof member === 'string' ? addText(member) : undefined;
  };
  return visit(buzz, 1);
}
