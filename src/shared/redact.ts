/**
 * JSON pointers into received input that never echo a received key name: keys the caller's
 * contract defines are written out, any other key becomes `*`. Error messages and paths include
 * pointers, and an attacker chooses unknown keys (of any length, with any characters). Each source
 * hands in the keys its dialect defines, so this kit knows no source.
 */
import { pointer } from '../errors.js';

/** The key names one dialect of `_meta.buzz` defines, which a pointer may show as they are. */
export type ContractKeys = ReadonlySet<string>;

/** The path to the namespace, kept in every pointer whatever the dialect. */
const NAMESPACE_KEYS: ContractKeys = new Set(['_meta', 'buzz']);

/** A segment as it may appear in a pointer: indices and contract keys as they are, else `*`. */
function safeSegment(segment: string | number, contractKeys: ContractKeys): string | number {
  return typeof segment === 'number' || NAMESPACE_KEYS.has(segment) || contractKeys.has(segment) ? segment : '*';
}

/** {@link pointer} with every key `contractKeys` does not define written as `*`. */
export function safePointer(segments: readonly (string | number)[], contractKeys: ContractKeys): string {
  return pointer(segments.map((segment) => safeSegment(segment, contractKeys)));
}
