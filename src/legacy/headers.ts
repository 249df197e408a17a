/**
 * Recognizes the structural lines of every era: section headers (the lines of `HEADERS` in
 * eras.ts: `[Buzz events — 2 events]`, `<buzz-event type="…">`, the Steer/Interrupt merge headers)
 * and event separators (`--- Event 2 (@mention) ---`). Each is recognized whole, on a line of its
 * own, with its exact characters (U+2014 em dashes, not hyphens); anything else is content.
 */

import { HEADERS, type HeaderFamily, type SectionRole } from './eras.js';

/** A recognized section header. */
export interface SectionHeader {
  /** The family of headers it belongs to, which says the eras it can introduce (eras.ts). */
  readonly family: HeaderFamily;
  /** `events` for the delivered events, `prior` for the cancelled turn of a merge. */
  readonly role: SectionRole;
  /** `single`: the event block follows the header; `chunks`: `--- Event i ---` separators follow. */
  readonly form: 'single' | 'chunks';
  /** The event count the header states, if it states one. */
  readonly declared?: number;
  /** For XML frames: the closing tag line. */
  readonly close?: string;
  /** True for a merge header (its section belongs to a Steer/Interrupt merge). */
  readonly merge: boolean;
  /**
   * True for the kept-session re-prompt's frame (`<your-interrupted-turn-was-handling>`): after a
   * harness restart it is sent alone, the interrupted turn's events and no new ones.
   */
  readonly restart?: true;
}

const COUNT_PATTERN = /^[1-9]\d{0,3}$/;

/** `N events]` at the end of a batch header → N. */
function countBefore(text: string, suffix: string): number | undefined {
  if (!text.endsWith(suffix)) return undefined;
  const digits = text.slice(0, -suffix.length);
  return COUNT_PATTERN.test(digits) ? Number(digits) : undefined;
}

/** Recognizes a section header line of any era, or returns `undefined`. */
export function sectionHeader(line: string): SectionHeader | undefined {
  if (line.startsWith('<')) return xmlHeader(line);
  if (!line.startsWith('[') || !line.endsWith(']')) return undefined;
  return bracketHeader(line);
}

/** The families whose headers are a single-event prefix and a batch prefix. */
const BRANDS = ['buzz-event', 'sprout-event'] as const;

function bracketHeader(line: string): SectionHeader | undefined {
  for (const family of BRANDS) {
    const { single, batch } = HEADERS[family];
    if (line.startsWith(single)) return { family, role: 'events', form: 'single', merge: false };
    const declared = batchCount(line, batch);
    if (declared !== undefined) return { family, role: 'events', form: 'chunks', declared, merge: false };
  }
  const family = 'sprout-mention';
  if (line === HEADERS[family].single) return { family, role: 'events', form: 'single', merge: false };
  const mentions = batchCount(line, HEADERS[family].batch);
  if (mentions !== undefined) return { family, role: 'events', form: 'chunks', declared: mentions, merge: false };
  const merge = 'bracket-merge';
  const singles = HEADERS[merge].single;
  const role = Object.hasOwn(singles, line) ? singles[line] : undefined;
  if (role !== undefined) return { family: merge, role, form: 'chunks', merge: true };
  for (const prefix of HEADERS[merge].batch) {
    const declared = batchCount(line, prefix);
    if (declared !== undefined) return { family: merge, role: 'events', form: 'chunks', declared, merge: true };
  }
  return undefined;
}

function batchCount(line: string, prefix: string): number | undefined {
  return line.startsWith(prefix) ? countBefore(line.slice(prefix.length), ' events]') : undefined;
}

const XML_OPEN_PATTERN = /^<([a-z][a-z-]{0,63})((?: [a-z]{1,16}="[^"<>]{0,256}")*)>$/;
const COUNT_ATTRIBUTE = /(?:^| )count="([1-9]\d{0,3})"/;

function xmlHeader(line: string): SectionHeader | undefined {
  const match = XML_OPEN_PATTERN.exec(line);
  if (match === null) return undefined;
  const name = match[1] ?? '';
  const attributes = match[2] ?? '';
  const countText = COUNT_ATTRIBUTE.exec(attributes)?.[1];
  const declared = countText === undefined ? {} : { declared: Number(countText) };
  const close = `</${name}>`;
  const xml = HEADERS.xml;
  if (name === xml.single) {
    return attributes.startsWith(' type="')
      ? { family: 'xml', role: 'events', form: 'single', close, merge: false }
      : undefined;
  }
  if (name === xml.batch) {
    return countText === undefined
      ? undefined
      : { family: 'xml', role: 'events', form: 'chunks', close, ...declared, merge: false };
  }
  const role = Object.hasOwn(xml.merges, name) ? xml.merges[name] : undefined;
  if (role === undefined) return undefined;
  const restart = name === xml.restart ? { restart: true as const } : {};
  return { family: 'xml', role, form: 'chunks', close, ...declared, merge: true, ...restart };
}

/**
 * The number of an event separator: `--- Event N (tag) ---` (V2+; the tag may contain `)`, so
 * the line is matched up to its trailing ` ---`) or `--- Event N ---` (V1). `undefined` otherwise.
 */
export function separatorNumber(line: string, tagged: boolean): number | undefined {
  return separatorNumberIn(line, 0, line.length, tagged);
}

/**
 * {@link separatorNumber} of the line that runs from `start` to `end` (exclusive) in `source`,
 * read in place: this runs for every candidate end of a section, forged ones included.
 */
export function separatorNumberIn(source: string, start: number, end: number, tagged: boolean): number | undefined {
  // The middle runs from after `--- Event ` to before ` ---` (when the two overlap, no digit is read).
  const middle = end - 4;
  if (!source.startsWith('--- Event ', start) || !source.startsWith(' ---', middle)) return undefined;
  const first = start + 10;
  let at = first;
  let number = 0;
  for (; at < middle && at < first + 4; at++) {
    const digit = source.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9 || (digit === 0 && at === first)) break;
    number = number * 10 + digit;
  }
  // One to four digits, the first not 0, then the end of the line's middle or a space.
  if (at === first) return undefined;
  if (at >= middle) return tagged ? undefined : number;
  if (!tagged || source.charCodeAt(at) !== 32) return undefined;
  return source.charCodeAt(at + 1) === 40 && source.charCodeAt(middle - 1) === 41 ? number : undefined;
}

/** The closing notes of Steer/Interrupt merges and the kept-session re-prompt: text after the events. */
export function isTrailer(line: string): boolean {
  return (
    line.startsWith('Note: ') ||
    line.startsWith('<openclaw-session-label') ||
    line.startsWith('Your previous turn was interrupted')
  );
}
