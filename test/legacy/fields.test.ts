/** The value readers of one event block and the header recognizers, case by case. */
import { describe, expect, test } from 'vitest';
import {
  parseBareSender,
  parseChannelDisplay,
  parseKind,
  parseRichSender,
  parseTags,
  parseTime,
} from '../../src/legacy/fields.js';
import { isTrailer, sectionHeader, separatorNumber } from '../../src/legacy/headers.js';
import { readContext } from '../../src/legacy/context-block.js';
import { toNpub } from '../../src/index.js';
import { ALICE, BOB } from './fixtures.js';

const UUID = '3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d';
const NPUB = toNpub(ALICE);

describe('parseChannelDisplay', () => {
  test.each([
    [UUID, { id: UUID }],
    [`x (#${UUID})`, { id: UUID, name: 'x' }],
    [`a (#${BOB.slice(0, 36)}) (#${UUID})`, { id: UUID, name: `a (#${BOB.slice(0, 36)})` }],
    [`  (#${UUID})`, { id: UUID, name: ' ' }],
    [` (#${UUID})`, undefined],
    [`(#${UUID})`, undefined],
    [`x (#${UUID.toUpperCase()})`, undefined],
    [`x (#${UUID}`, undefined],
    [`x [#${UUID})`, undefined],
    [UUID.toUpperCase(), undefined],
    [`${UUID}0`, undefined],
    ['', undefined],
  ])('%j', (value, expected) => {
    expect(parseChannelDisplay(value)).toEqual(expected);
  });
});

describe('senders', () => {
  test.each([
    [`${NPUB} (hex: ${ALICE})`, { pubkey: ALICE }],
    [`Alice (npub: ${NPUB}, hex: ${ALICE})`, { pubkey: ALICE, label: 'Alice' }],
    [
      `x (npub: ${NPUB}, hex: ${ALICE}) (npub: ${NPUB}, hex: ${ALICE})`,
      { pubkey: ALICE, label: `x (npub: ${NPUB}, hex: ${ALICE})` },
    ],
    [`${NPUB} (hex: ${BOB})`, 'mismatch'],
    [`A (npub: ${NPUB}, hex: ${BOB})`, 'mismatch'],
    [`${NPUB} (hex: ${ALICE.toUpperCase()})`, 'malformed'],
    [`${NPUB} [hex: ${ALICE})`, 'malformed'],
    [`${NPUB} (hex: ${ALICE}]`, 'malformed'],
    [`A (npub: ${NPUB}; hex: ${ALICE})`, 'malformed'],
    [`A [npub: ${NPUB}, hex: ${ALICE})`, 'malformed'],
    [`A (npub: ${NPUB}, hex: ${ALICE}]`, 'malformed'],
    [` (npub: ${NPUB}, hex: ${ALICE})`.slice(1), 'malformed'],
    [`A (npub: ${NPUB.toUpperCase()}, hex: ${ALICE})`, 'malformed'],
    [`A (npub: ${NPUB.slice(0, -1)}q, hex: ${ALICE})`, 'malformed'],
    [`A (npub: note1${NPUB.slice(5)}, hex: ${ALICE})`, 'malformed'],
    ['', 'malformed'],
  ])('rich %#', (value, expected) => {
    expect(parseRichSender(value)).toEqual(expected);
  });
  test.each([
    [NPUB, { pubkey: ALICE }],
    [ALICE, { pubkey: ALICE }],
    [ALICE.toUpperCase(), 'malformed'],
    [NPUB.toUpperCase(), 'malformed'],
    [`${NPUB} `, 'malformed'],
    ['npub1', 'malformed'],
  ])('bare %#', (value, expected) => {
    expect(parseBareSender(value)).toEqual(expected);
  });
});

describe('kind, time, tags', () => {
  test.each([
    ['0', 0],
    ['9', 9],
    ['65535', 65_535],
    ['65536', undefined],
    ['09', undefined],
    ['-1', undefined],
    ['9.0', undefined],
    ['', undefined],
  ])('kind %j', (value, expected) => {
    expect(parseKind(value)).toBe(expected);
  });
  test.each([
    ['2026-08-29T10:40:00+00:00', 1_788_000_000],
    ['2026-08-29T10:40:00Z', 1_788_000_000],
    ['2026-08-29T12:40:00+02:00', 1_788_000_000],
    ['2026-08-29T08:10:00-02:30', 1_788_000_000],
    ['1788000000', 1_788_000_000],
    ['0', 0],
    ['1970-01-01T00:00:00+00:00', 0],
    ['1969-12-31T23:59:59+00:00', undefined],
    ['2026-02-30T10:40:00+00:00', undefined],
    ['2024-02-29T00:00:00+00:00', 1_709_164_800],
    ['2000-02-29T00:00:00+00:00', 951_782_400],
    ['2023-02-29T00:00:00+00:00', undefined],
    ['2100-02-29T00:00:00+00:00', undefined],
    ['2026-04-31T00:00:00+00:00', undefined],
    ['2026-12-31T23:59:59+00:00', 1_798_761_599],
    ['2026-01-01T00:00:00+00:00', 1_767_225_600],
    ['2026-00-10T00:00:00+00:00', undefined],
    ['2026-01-00T00:00:00+00:00', undefined],
    ['0099-06-01T00:00:00+00:00', undefined],
    ['0100-06-01T00:00:00+00:00', undefined],
    ['1969-12-31T23:30:00-01:00', 1800],
    ['2026-13-01T10:40:00+00:00', undefined],
    ['2026-08-29T24:00:00+00:00', undefined],
    ['2026-08-29T10:60:00+00:00', undefined],
    ['2026-08-29T10:40:60+00:00', undefined],
    ['2026-08-29T10:40:00+24:00', undefined],
    ['2026-08-29T10:40:00+23:00', 1_788_000_000 - 23 * 3600],
    ['2026-08-29T10:40:00-23:59', 1_788_000_000 + 23 * 3600 + 59 * 60],
    ['2026-08-29T10:40:00+00:59', 1_788_000_000 - 59 * 60],
    ['2026-08-29T10:40:00+00:60', undefined],
    ['2026-08-29T10:40:00.000+00:00', undefined],
    ['2026-08-29 10:40:00+00:00', undefined],
    // The whole value is the time: text before or after a valid one is refused.
    ['2026-08-29T10:40:00Z2026-08-29T10:40:00Z', undefined],
    ['2026-08-29T10:40:00+01:00 ', undefined],
    ['01788000000', undefined],
    ['99999999999999999', undefined],
    ['', undefined],
  ])('time %j', (value, expected) => {
    expect(parseTime(value)).toBe(expected);
  });
  test.each([
    ['[]', []],
    [
      '[["h","x"],["e","a","","reply"]]',
      [
        ['h', 'x'],
        ['e', 'a', '', 'reply'],
      ],
    ],
    ['[["h",1]]', undefined],
    ['[{"h":1}]', undefined],
    ['["h"]', undefined],
    ['[] x', undefined],
    ['x []', undefined],
    ['[[]', undefined],
    ['{}', undefined],
  ])('tags %j', (value, expected) => {
    expect(parseTags(value)).toEqual(expected);
  });
});

describe('headers and separators', () => {
  const EM = '\u2014';
  test.each([
    ['[Buzz event: @mention]', { family: 'buzz-event', role: 'events', form: 'single', merge: false }],
    ['[Buzz event: triage (p1)]', { family: 'buzz-event', role: 'events', form: 'single', merge: false }],
    [
      `[Buzz events ${EM} 12 events]`,
      { family: 'buzz-event', role: 'events', form: 'chunks', declared: 12, merge: false },
    ],
    ['[Sprout event: x]', { family: 'sprout-event', role: 'events', form: 'single', merge: false }],
    [
      `[Sprout events ${EM} 2 events]`,
      { family: 'sprout-event', role: 'events', form: 'chunks', declared: 2, merge: false },
    ],
    ['[Sprout @mention]', { family: 'sprout-mention', role: 'events', form: 'single', merge: false }],
    [
      `[Sprout @mention ${EM} 3 events]`,
      { family: 'sprout-mention', role: 'events', form: 'chunks', declared: 3, merge: false },
    ],
    ['[What you were working on]', { family: 'bracket-merge', role: 'prior', form: 'chunks', merge: true }],
    [
      `[Previous request ${EM} interrupted before completion]`,
      { family: 'bracket-merge', role: 'prior', form: 'chunks', merge: true },
    ],
    [
      `[New message ${EM} arrived while you were working]`,
      { family: 'bracket-merge', role: 'events', form: 'chunks', merge: true },
    ],
    [
      `[New messages ${EM} arrived while you were working ${EM} 2 events]`,
      { family: 'bracket-merge', role: 'events', form: 'chunks', declared: 2, merge: true },
    ],
    [
      `[New request ${EM} supersedes previous ${EM} 3 events]`,
      { family: 'bracket-merge', role: 'events', form: 'chunks', declared: 3, merge: true },
    ],
    ['<buzz-event type="x">', { family: 'xml', role: 'events', form: 'single', close: '</buzz-event>', merge: false }],
    [
      '<buzz-events count="2">',
      { family: 'xml', role: 'events', form: 'chunks', close: '</buzz-events>', declared: 2, merge: false },
    ],
    [
      '<what-you-were-working-on>',
      { family: 'xml', role: 'prior', form: 'chunks', close: '</what-you-were-working-on>', merge: true },
    ],
    [
      '<new-request-supersedes-previous count="2">',
      {
        family: 'xml',
        role: 'events',
        form: 'chunks',
        close: '</new-request-supersedes-previous>',
        declared: 2,
        merge: true,
      },
    ],
    [`[Buzz events - 2 events]`, undefined],
    [`[Buzz events ${EM} 0 events]`, undefined],
    [`[Buzz events ${EM} 2 event]`, undefined],
    [`[Buzz events ${EM} 02 events]`, undefined],
    [`[Buzz events ${EM} 2 events] `, undefined],
    [`[Buzz events ${EM} 12345 events]`, undefined],
    [
      '<buzz-events count="1234">',
      { family: 'xml', role: 'events', form: 'chunks', close: '</buzz-events>', declared: 1234, merge: false },
    ],
    [' <buzz-events count="2">', undefined],
    ['<buzz-events count="2"> ', undefined],
    ['[Context]', undefined],
    ['<buzz-event>', undefined],
    ['<buzz-events>', undefined],
    ['<buzz-event type="x" >', undefined],
    ['<context>', undefined],
    ['<new-thing>', undefined],
    ['Buzz event: x', undefined],
    ['[toString]', undefined],
    ['[Buzz event: @mention', undefined],
    ['[Sprout event: x', undefined],
    [`[Buzz events ${EM} 2 Events]`, undefined],
    ['<constructor>', undefined],
  ])('%j', (line, expected) => {
    expect(sectionHeader(line)).toEqual(expected);
  });
  test.each([
    ['--- Event 1 (@mention) ---', true, 1],
    ['--- Event 12 (triage (p1)) ---', true, 12],
    ['--- Event 1 () ---', true, 1],
    ['--- Event 1 ---', true, undefined],
    ['--- Event 1 ---', false, 1],
    ['--- Event 1 (x) ---', false, undefined],
    ['--- Event 0 (x) ---', true, undefined],
    ['--- Event 1 (x)---', true, undefined],
    ['--- Event 1 x) ---', true, undefined],
    ['--- Event 1 (x ---', true, undefined],
    ['--- Event one (x) ---', true, undefined],
    ['-- Event 1 (x) ---', true, undefined],
    ['+++ Event 1 (x) ---', true, undefined],
    ['--- Event 1 (x) +++', true, undefined],
    ['+++ Event 1 ---', false, undefined],
    ['--- Event 1 +++', false, undefined],
    ['--- Event 1234 (x) ---', true, 1234],
    ['--- Event 9876 ---', false, 9876],
    ['--- Event 12345 (x) ---', true, undefined],
    ['--- Event 12345 ---', false, undefined],
    ['--- Event 01 (x) ---', true, undefined],
    ['--- Event 10 (x) ---', true, 10],
    ['--- Event 1x (y) ---', true, undefined],
    ['--- Event 1/ (y) ---', true, undefined],
    ['--- Event 1: (y) ---', true, undefined],
    ['--- Event  (x) ---', true, undefined],
    ['--- Event 1  (x) ---', true, undefined],
    ['--- Event 1 (x ) ---', true, 1],
    ['--- Event 1 ( ---', true, undefined],
    ['--- Event 1 ) ---', true, undefined],
    ['--- Event 1 (x) ---', false, undefined],
    ['--- Event 1 x ---', false, undefined],
    ['--- Event ---', true, undefined],
    ['--- Event ---', false, undefined],
    ['--- Event  ---', false, undefined],
  ])('separator %j tagged=%s', (line, tagged, expected) => {
    expect(separatorNumber(line, tagged)).toBe(expected);
  });
  test.each([
    ['Note: x', true],
    ['<openclaw-session-label>', true],
    ['Your previous turn was interrupted.', true],
    ['note: x', false],
    ['', false],
  ])('trailer %j', (line, expected) => {
    expect(isTrailer(line)).toBe(expected);
  });
});

describe('readContext', () => {
  const ROOT = 'a'.repeat(64);
  const PARENT = 'b'.repeat(64);
  const read = (...lines: string[]) => readContext(lines, 0, lines.length);
  test('scope, session scope, channel and the last of each anchor', () => {
    expect(
      read(
        '[Context]',
        'Scope: thread',
        'Session scope: thread',
        `Channel: x (#${UUID})`,
        `Thread root: ${'c'.repeat(64)}`,
        `Thread root: ${ROOT}`,
        `Parent: ${PARENT}`,
        `IMPORTANT: use \`--reply-to ${ROOT}\` on send`,
      ),
    ).toEqual({ scope: 'thread', channel: { id: UUID, name: 'x' }, threadRoot: ROOT, parent: PARENT, replyTo: ROOT });
  });
  test('unknown scope, no channel, anchors that are not whole ids', () => {
    expect(
      read(
        '<context>',
        'Scope: group',
        'Channel: nope',
        `Thread root: ${ROOT}0`,
        `Parent: ${PARENT.toUpperCase()}`,
        `IMPORTANT: use \`--reply-to ${ROOT}a\` on send`,
        `IMPORTANT: use --reply-to`,
      ),
    ).toEqual({ scope: undefined, channel: undefined, threadRoot: undefined, parent: undefined, replyTo: undefined });
  });
  test('stops at a blank line or </context>', () => {
    expect(read('[Context]', 'Scope: dm', `Channel: ${UUID}`, '', `Thread root: ${ROOT}`).threadRoot).toBeUndefined();
    expect(read('<context>', `Channel: ${UUID}`, '</context>', `Thread root: ${ROOT}`)).toEqual({
      scope: undefined,
      channel: { id: UUID },
      threadRoot: undefined,
      parent: undefined,
      replyTo: undefined,
    });
    expect(read('[Context]', 'Scope: dm', `Channel: ${UUID}`, `IMPORTANT: --reply-to ${ROOT}`).replyTo).toBe(ROOT);
  });
});

describe('exact edges of the field readers', () => {
  test('a channel display must end in `)` right after its UUID', () => {
    expect(parseChannelDisplay(`x (#${UUID}]`)).toBeUndefined();
    expect(parseChannelDisplay(`x (#${UUID})`)).toStrictEqual({ id: UUID, name: 'x' });
    expect(parseChannelDisplay(UUID)).toStrictEqual({ id: UUID });
  });
  test('a labelled sender needs a label of at least one character', () => {
    expect(parseRichSender(` (npub: ${NPUB}, hex: ${ALICE})`)).toBe('malformed');
    expect(parseRichSender(`A (npub: ${NPUB}, hex: ${ALICE})`)).toStrictEqual({ pubkey: ALICE, label: 'A' });
  });
  test('an unlabelled sender has no label key', () => {
    expect(parseRichSender(`${NPUB} (hex: ${ALICE})`)).toStrictEqual({ pubkey: ALICE });
    expect(parseBareSender(NPUB)).toStrictEqual({ pubkey: ALICE });
  });
  test('a tagged separator needs a space between its number and its tag', () => {
    expect(separatorNumber('--- Event 2x(y) ---', true)).toBeUndefined();
    expect(separatorNumber('--- Event 2 (y) ---', true)).toBe(2);
  });
  test('a Tags value is the JSON array alone: no space before or after it', () => {
    expect(parseTags(' [["a"]]')).toBeUndefined();
    expect(parseTags('[["a"]] ')).toBeUndefined();
    expect(parseTags('[["a"]]')).toEqual([['a']]);
  });
  test('an npub in mixed case or of another length is no sender', () => {
    expect(parseBareSender(`${NPUB.slice(0, 10)}${NPUB.slice(10).toUpperCase()}`)).toBe('malformed');
    expect(parseBareSender(NPUB.slice(0, -1))).toBe('malformed');
  });
});
