/**
 * JSON pointers into received input that never echo a received key name: keys the contract
 * defines are written out, any other key becomes `*`. Error messages and paths include pointers,
 * and an attacker chooses unknown keys (of any length, with any characters).
 */
import { DRAFT_KEYS } from '../draft/schema.js';
import { ENVELOPE_KEYS } from '../envelope/schema.js';
import { pointer } from '../errors.js';

const CONTRACT_KEYS: ReadonlySet<string> = new Set([
  '_meta',
  'buzz',
  ...Object.values(ENVELOPE_KEYS).flatMap((keys) => [...keys]),
  ...Object.values(DRAFT_KEYS).flatMap((keys) => [...keys]),
]);

/** A segment as it may appear in a pointer: indices and contract keys as they are, else `*`. */
export function safeSegment(segment: string | number): string | number {
  return typeof segment === 'number' || CONTRACT_KEYS.has(segment) ? segment : '*';
}

/** {@link pointer} with every key the contract does not define written as `*`. */
export function safePointer(segments: readonly (string | number)[]): string {
  return pointer(segments.map(safeSegment));
}
