/**
 * The values of one rendered event block, each checked whole: ids and pubkeys at their exact
 * length in lowercase, channel displays anchored on their fixed-length `(#uuid)` suffix, senders
 * on their fixed-length `(npub: …, hex: …)` suffix. A partial match is never an id.
 */
import { isHex64, UUID_PATTERN } from '../shared/hex.js';
import { toHexPubkey } from '../npub.js';
import { isTagsJson } from './tags-json.js';

/** The value after `label` when `line` starts with it, else `undefined`. */
export function fieldValue(line: string | undefined, label: string): string | undefined {
  return line?.startsWith(label) === true ? line.slice(label.length) : undefined;
}

/** True for a lowercase hyphenated UUID of exactly 36 characters. */
function isUuid(value: string): boolean {
  return value.length === 36 && UUID_PATTERN.test(value);
}

/** A rendered channel: `name (#uuid)` or a bare UUID. */
export interface ChannelDisplay {
  /** The channel UUID. */
  readonly id: string;
  /** The name rendered before `(#uuid)`, if any. */
  readonly name?: string;
}

/** ` (#` + 36 + `)`: the fixed-length suffix of a named channel display. */
const CHANNEL_SUFFIX_LENGTH = 40;

/**
 * Reads `name (#uuid)` or a bare UUID. The UUID is the one in the **last** 40 characters, so a
 * name that itself contains `(#uuid)` cannot move it.
 */
export function parseChannelDisplay(value: string): ChannelDisplay | undefined {
  if (value.length === 36) return isUuid(value) ? { id: value } : undefined;
  const open = value.length - CHANNEL_SUFFIX_LENGTH;
  if (open < 1 || !value.startsWith(' (#', open) || !value.endsWith(')')) return undefined;
  const id = value.slice(open + 3, -1);
  return isUuid(id) ? { id, name: value.slice(0, open) } : undefined;
}

/** A sender as rendered: 64-hex pubkey plus the label the host printed, if any. */
export interface RenderedSender {
  /** 64 lowercase hex. */
  readonly pubkey: string;
  /** Display name (untrusted). */
  readonly label?: string;
}

/** Why a sender could not be read. */
export type SenderProblem = 'malformed' | 'mismatch';

const NPUB_LENGTH = 63;
/** `npub1… (hex: <64>)`: 63 + 7 + 64 + 1. */
const UNLABELLED_LENGTH = NPUB_LENGTH + 7 + 64 + 1;
/** ` (npub: <63>, hex: <64>)`: 8 + 63 + 7 + 64 + 1. */
const LABELLED_SUFFIX_LENGTH = 8 + NPUB_LENGTH + 7 + 64 + 1;

/**
 * Reads a V3+ `From:` value: `label (npub: N, hex: H)` or `N (hex: H)`. Both forms are parsed
 * from their fixed-length end, so `(npub: …, hex: …)` decoys inside a label are just label.
 * The npub must decode to the hex: a disagreement is an error, never a guess.
 */
export function parseRichSender(value: string): RenderedSender | SenderProblem {
  if (value.length === UNLABELLED_LENGTH) {
    if (!value.startsWith(' (hex: ', NPUB_LENGTH) || !value.endsWith(')')) return 'malformed';
    return pair(value.slice(0, NPUB_LENGTH), value.slice(NPUB_LENGTH + 7, -1), undefined);
  }
  const open = value.length - LABELLED_SUFFIX_LENGTH;
  if (open < 1 || !value.startsWith(' (npub: ', open) || !value.endsWith(')')) return 'malformed';
  const npubAt = open + 8;
  if (!value.startsWith(', hex: ', npubAt + NPUB_LENGTH)) return 'malformed';
  return pair(
    value.slice(npubAt, npubAt + NPUB_LENGTH),
    value.slice(npubAt + NPUB_LENGTH + 7, -1),
    value.slice(0, open),
  );
}

function pair(npub: string, hex: string, label: string | undefined): RenderedSender | SenderProblem {
  const decoded = npubToHex(npub);
  if (decoded === undefined) return 'malformed';
  // The decoded npub is 64 lowercase hex, so a hex equal to it needs no check of its own.
  if (decoded !== hex) return isHex64(hex) ? 'mismatch' : 'malformed';
  return label === undefined ? { pubkey: decoded } : { pubkey: decoded, label };
}

/**
 * Reads a V1/V2 `From:` value: an npub (lowercase, checksummed, 32 bytes) or, where the host's
 * bech32 encoding failed, 64 lowercase hex.
 */
export function parseBareSender(value: string): RenderedSender | SenderProblem {
  if (isHex64(value)) return { pubkey: value };
  const decoded = npubToHex(value);
  return decoded === undefined ? 'malformed' : { pubkey: decoded };
}

/**
 * npubs decoded before, and their hex. The same few senders recur in every prompt an agent gets,
 * and a bech32 decode costs more than reading the rest of an event block. Decoding is a pure
 * function, so a cached answer is the answer; the cache is emptied when full.
 */
const decodedNpubs = new Map<string, string>();
const MAX_DECODED_NPUBS = 1024;

function npubToHex(value: string): string | undefined {
  const known = decodedNpubs.get(value);
  if (known !== undefined) return known;
  // Lowercase only: the host prints bech32 in lowercase, and nip19 would accept all-caps.
  if (value.length !== NPUB_LENGTH || !value.startsWith('npub1') || value !== value.toLowerCase()) return undefined;
  let hex: string;
  try {
    hex = toHexPubkey(value);
  } catch {
    return undefined;
  }
  if (decodedNpubs.size >= MAX_DECODED_NPUBS) decodedNpubs.clear();
  // The key is a copy: `value` is a slice of the prompt and would keep the whole text alive.
  decodedNpubs.set(value.split('').join(''), hex);
  return hex;
}

const KIND_PATTERN = /^(?:0|[1-9]\d{0,4})$/;

/** A decimal Nostr kind, 0–65535, without leading zeros. */
export function parseKind(value: string): number | undefined {
  if (!KIND_PATTERN.test(value)) return undefined;
  const kind = Number(value);
  return kind <= 65_535 ? kind : undefined;
}

const RFC3339_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})$/;
const SECONDS_PATTERN = /^(?:0|[1-9]\d{0,15})$/;

/**
 * Unix seconds from a rendered time: RFC 3339 with an offset and whole seconds (the host prints
 * `+00:00`), or the bare decimal seconds the host falls back to. Impossible dates are refused.
 */
export function parseTime(value: string): number | undefined {
  if (SECONDS_PATTERN.test(value)) {
    const seconds = Number(value);
    return Number.isSafeInteger(seconds) ? seconds : undefined;
  }
  if (!RFC3339_PATTERN.test(value)) return undefined;
  // The pattern fixed every digit's place: read them without capture groups.
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 7);
  const day = digits(value, 8, 10);
  const hour = digits(value, 11, 13);
  const minute = digits(value, 14, 16);
  const second = digits(value, 17, 19);
  // Date.UTC maps years 0-99 to 1900-1999; those are before 1970 anyway.
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = Date.UTC(year, month - 1, day, hour, minute, second);
  const seconds = millis / 1000 - offsetSeconds(value.slice(19));
  return seconds >= 0 ? seconds : undefined;
}

/** The decimal number of `value`'s characters `from` to `to` (exclusive), all digits. */
function digits(value: string, from: number, to: number): number {
  let number = 0;
  for (let index = from; index < to; index++) number = number * 10 + value.charCodeAt(index) - 48;
  return number;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** Days in `month` (1-12) of `year`, Gregorian. */
function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

function offsetSeconds(offset: string): number {
  if (offset === 'Z') return 0;
  const hours = digits(offset, 1, 3);
  const minutes = digits(offset, 4, 6);
  if (hours > 23 || minutes > 59) return Number.NaN;
  const sign = offset.startsWith('-') ? -1 : 1;
  return sign * (hours * 3600 + minutes * 60);
}

/** Tags as the host prints them: compact JSON, an array of arrays of strings. */
export type RenderedTags = readonly (readonly string[])[];

/** Parses a `Tags:` value; `undefined` unless it is exactly a JSON array of string arrays. */
export function parseTags(value: string): RenderedTags | undefined {
  // Checked by structure first: content may hold many lines like a Tags line, and a throwing
  // JSON.parse costs far more than a look at each character. What passes parses, to arrays of strings.
  if (!value.startsWith('[') || !value.endsWith(']') || !isTagsJson(value)) return undefined;
  return JSON.parse(value) as RenderedTags;
}
