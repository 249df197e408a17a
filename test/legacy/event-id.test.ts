/** The id check's own rules: the hash budget at its exact bounds, and what a match needs. */
import { getEventHash } from 'nostr-tools/pure';
import { expect, test } from 'vitest';
import { HashBudget, IdChecker } from '../../src/legacy/event-id.js';
import { LineText } from '../../src/legacy/line-text.js';
import { ALICE, T0 } from './fixtures.js';

const TAGS = [['t', 'x']];

function setup(content: string, budget: number) {
  const lines = content.split('\n');
  const text = new LineText(
    ['Content: ' + (lines[0] ?? ''), ...lines.slice(1), `Tags: ${JSON.stringify(TAGS)}`].join('\n'),
  );
  const id = getEventHash({ pubkey: ALICE, created_at: T0, kind: 9, tags: TAGS, content });
  const head = { id, pubkey: ALICE, createdAt: T0, kind: 9, firstContent: lines[0] ?? '', contentLine: 0 };
  // The Tags line is the text's last line.
  return {
    checker: new IdChecker(text, head, new HashBudget(budget)),
    text,
    tagsLine: text.text.lastIndexOf('\n') + 1,
  };
}

/** What every check costs beyond the characters it hashes. */
const CHECK_COST = 256;

/** What a first check charges: its fixed cost, the JSON prefix up to the first content line (later pieces add their `\n`). */
function prefixLength(first: string): number {
  return CHECK_COST + `[0,"${ALICE}",${T0},9,${JSON.stringify(TAGS)},"${first}`.length;
}

test('a budget takes exactly what it has', () => {
  const budget = new HashBudget(5);
  expect(budget.take(6)).toBe(false);
  expect(budget.take(5)).toBe(true);
  expect(budget.take(1)).toBe(false);
  expect(budget.take(0)).toBe(true);
});

test('one-line content: the prefix alone is charged', () => {
  const exact = setup('hello', prefixLength('hello'));
  expect(exact.checker.matches(TAGS, exact.tagsLine)).toBe(true);
  const short = setup('hello', prefixLength('hello') - 1);
  expect(short.checker.matches(TAGS, short.tagsLine)).toBeUndefined();
});

test('later content lines are charged with their newline', () => {
  const need = prefixLength('one') + 'two\nthree'.length + 1;
  const exact = setup('one\ntwo\nthree', need);
  expect(exact.checker.matches(TAGS, exact.tagsLine)).toBe(true);
  const short = setup('one\ntwo\nthree', need - 1);
  expect(short.checker.matches(TAGS, short.tagsLine)).toBeUndefined();
});

test('a second check of the same stream costs its fixed cost and what it adds', () => {
  const { checker, text, tagsLine } = setup('one\ntwo', prefixLength('one') + CHECK_COST + 'two'.length + 1);
  expect(checker.matches(TAGS, text.previous(tagsLine))).toBe(false);
  expect(checker.matches(TAGS, tagsLine)).toBe(true);
  const short = setup('one\ntwo', prefixLength('one') + CHECK_COST + 'two'.length);
  expect(short.checker.matches(TAGS, short.text.previous(short.tagsLine))).toBe(false);
  expect(short.checker.matches(TAGS, short.tagsLine)).toBeUndefined();
});

test('other tags or an earlier end do not match', () => {
  const { checker, text, tagsLine } = setup('one\ntwo', 1_000_000);
  expect(checker.matches([['t', 'y']], tagsLine)).toBe(false);
  expect(checker.matches(TAGS, text.previous(tagsLine))).toBe(false);
});
