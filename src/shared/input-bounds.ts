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
 * Objects with at least this many keys have their key lists kept for the caller: V8 keeps such
 * objects as dictionaries, where listing the keys sorts them by insertion and costs about half a
 * `JSON.parse` of the object, so the canonicalizer reuses the list instead of listing them again.
 */
export const KEPT_KEY_LISTS_FROM = 1024;

/**
 * Walks `buzz` (the value of `_meta.buzz`) and returns the first bound it breaks, or `undefined`.
 * Every bound is `limit_exceeded`; its pointer shows only the keys in `contractKeys` (the keys of
 * the caller's dialect). When `keyLists` is given, the key lists of objects with at least
 * {@link KEPT_KEY_LISTS_FROM} keys are stored in it by object.
 */
export function checkInputBounds(
  buzz: unknown,
  limits: BuzzLimits,
  contractKeys: ContractKeys,
  keyLists?: Map<object, string[]>,
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
        const item: unknown = items[index];
        // Stryker disable next-line ConditionalExpression,LogicalOperator: visitAt of a scalar reaches visitScalar too; skipping it for scalars only saves the path push
        const found = typeof item === 'object' && item !== null ? visitAt(index, item, depth + 1) : visitScalar(item);
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
    if (keys.length >= KEPT_KEY_LISTS_FROM) keyLists?.set(value, keys);
    for (const key of keys) {
      const member: unknown = (value as Record<string, unknown>)[key];
      // A scalar member is counted here (an object with many keys is mostly scalars); only a
      // nested value needs the path, which names where depth is exceeded.
      const found =
        // Stryker disable next-line ConditionalExpression,LogicalOperator: as for array items, the scalar arm is the same check without the path push
        typeof member === 'object' && member !== null
          ? (addText(key) ?? visitAt(key, member, depth + 1))
          : (addText(key) ?? visitScalar(member));
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const visitAt = (key: string | number, member: object, depth: number): BuzzMetaError | undefined => {
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
