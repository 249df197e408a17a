/**
 * Exact-shape checks for the identifiers Buzz puts on the wire. Strict in: lowercase only,
 * exact length, no trimming. Each pattern is anchored and has no nested quantifier, so it runs
 * in linear time on hostile text.
 */

/** 64 lowercase hex digits: a Nostr pubkey or event id, a sha256 digest. */
export const HEX64_PATTERN = /^[0-9a-f]{64}$/;
/** 128 lowercase hex digits: a BIP-340 signature. */
export const HEX128_PATTERN = /^[0-9a-f]{128}$/;
/** A lowercase, hyphenated UUID (any version), as Rust's `Uuid::to_string` prints it. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True when `value` is a string of exactly 64 lowercase hex digits. */
export function isHex64(value: unknown): value is string {
  // No separate length test: the anchored pattern stops after 64 digits, whatever the length.
  return typeof value === 'string' && HEX64_PATTERN.test(value);
}
