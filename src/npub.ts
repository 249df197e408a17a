/**
 * npub ⇄ hex over `nostr-tools/nip19`, plus the checks nip19 leaves to its caller: the prefix
 * must be `npub` (nip19 happily decodes a `note1…`), the payload must be 32 bytes (nip19 decodes
 * any length), hex must be exactly 64 digits (nip19 encodes 62 or 66), and the input is bounded
 * to an npub's real length (nip19 accepts up to 5000 characters).
 */
import { nip19 } from './shared/deferred.js';
import { BuzzMetaError } from './errors.js';
import { isHex64 } from './shared/hex.js';

/** An npub is always 63 characters: `npub1` + 52 data + 6 checksum. */
const NPUB_LENGTH = 63;
/** Longer input is refused before decoding (nip19 itself would read up to 5000 characters). */
const MAX_INPUT_LENGTH = 128;
/** Hex digits of either case, any length (length is checked separately, to say what is wrong). */
const ANY_HEX = /^[0-9a-f]+$/i;

/**
 * Encodes a 64-hex pubkey as an npub.
 *
 * @example
 * ```ts
 * toNpub('3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d')
 * // 'npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6'
 * ```
 * @throws BuzzMetaError `invalid_pubkey` unless the input is 64 lowercase hex digits.
 * @group Keys
 */
export function toNpub(hex: string): `npub1${string}` {
  if (!isHex64(hex)) {
    throw BuzzMetaError.of('invalid_pubkey', '', 'a pubkey must be 64 lowercase hex digits');
  }
  return nip19().npubEncode(hex);
}

/**
 * Decodes an npub, or checks a hex pubkey, and returns 64 lowercase hex digits.
 * Upper-case hex and an all-upper-case npub are accepted and normalized; nothing is trimmed.
 *
 * @example
 * ```ts
 * toHexPubkey('npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6')
 * // '3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d'
 * ```
 * @throws BuzzMetaError `invalid_pubkey` for malformed hex, `invalid_npub` for a bad npub.
 * @group Keys
 */
export function toHexPubkey(npubOrHex: string): string {
  if (typeof npubOrHex !== 'string') {
    throw BuzzMetaError.of('invalid_pubkey', '', 'a pubkey must be a string (npub or 64 hex digits)');
  }
  // Hex digits never include "n", "p" or "u", so an npub cannot be mistaken for hex.
  if (npubOrHex.length <= MAX_INPUT_LENGTH && ANY_HEX.test(npubOrHex)) {
    if (npubOrHex.length !== 64) {
      throw BuzzMetaError.of('invalid_pubkey', '', `a hex pubkey is 64 hex digits; got ${String(npubOrHex.length)}`);
    }
    return npubOrHex.toLowerCase();
  }
  return decodeNpub(npubOrHex);
}

/**
 * True when `text` is a well-formed npub: right prefix, valid checksum, 32-byte payload.
 * A shape match alone (what `NostrTypeGuard.isNPub` checks) is not enough.
 *
 * @example
 * ```ts
 * isNpub('npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6') // true
 * isNpub('note1…') // false
 * ```
 * @group Keys
 */
export function isNpub(text: unknown): text is `npub1${string}` {
  if (typeof text !== 'string') return false;
  try {
    decodeNpub(text);
    return true;
  } catch {
    return false;
  }
}

/** Where a `nostr:` URI (NIP-21) starts; compared case-insensitively. */
const NOSTR_URI_PREFIX = 'nostr:';
/** Where a NIP-19 secret key starts; compared case-insensitively. */
const NSEC_PREFIX = 'nsec1';

/** Whether `text`, after leading white space and a `nostr:` prefix, starts like an nsec. */
function looksLikeNsec(text: string): boolean {
  let bare = text
    .trimStart()
    .slice(0, NOSTR_URI_PREFIX.length + NSEC_PREFIX.length)
    .toLowerCase();
  if (bare.startsWith(NOSTR_URI_PREFIX)) bare = bare.slice(NOSTR_URI_PREFIX.length);
  return bare.startsWith(NSEC_PREFIX);
}

function decodeNpub(text: string): string {
  if (text === '') {
    throw BuzzMetaError.of('invalid_npub', '', 'the pubkey is empty: give an npub or 64 hex digits');
  }
  // First, and before decoding: a secret was pasted, whatever else is wrong with it (a space, a
  // `nostr:` prefix, a typo), and that is what to say.
  if (looksLikeNsec(text)) {
    throw BuzzMetaError.of(
      'invalid_npub',
      '',
      'this is an nsec, a secret key: never give it to an agent or share it; pin the npub instead ' +
        '(`buzz-meta keygen` prints both), and make a new key pair if the nsec was seen by anyone',
    );
  }
  if (text.trim() !== text) {
    throw BuzzMetaError.of(
      'invalid_npub',
      '',
      'the pubkey starts or ends with whitespace; nothing is trimmed, so remove it (e.g. from the config file)',
    );
  }
  if (text.slice(0, NOSTR_URI_PREFIX.length).toLowerCase() === NOSTR_URI_PREFIX) {
    throw BuzzMetaError.of(
      'invalid_npub',
      '',
      'this is a nostr: URI, not a bare npub; drop the "nostr:" prefix and pass the npub1… part',
    );
  }
  if (text.length > MAX_INPUT_LENGTH) {
    throw BuzzMetaError.of(
      'invalid_npub',
      '',
      `an npub is ${String(NPUB_LENGTH)} characters; this input is far longer`,
    );
  }
  let decoded: ReturnType<ReturnType<typeof nip19>['decode']>;
  try {
    decoded = nip19().decode(text);
  } catch {
    throw BuzzMetaError.of('invalid_npub', '', 'not a valid npub (bad characters, mixed case or checksum)');
  }
  if (decoded.type !== 'npub') {
    throw BuzzMetaError.of('invalid_npub', '', `expected an npub, got a NIP-19 "${decoded.type}"`);
  }
  if (decoded.data.length !== 64) {
    throw BuzzMetaError.of(
      'invalid_npub',
      '',
      `an npub carries exactly 32 bytes; this one carries ${String(decoded.data.length / 2)}`,
    );
  }
  return decoded.data;
}
