/**
 * The assembly of a scraped context, case by case: which sections count, which keys a context
 * holds (absent, not `undefined`), and that no two events share a tag array.
 */
import { expect, test } from 'vitest';
import { scrapePromptText } from '../../src/index.js';
import { ALICE, chat, ENGINEERING } from './fixtures.js';
import { contextSection, eventId, eventSection, mergeSections, prompt } from './render.js';

const OTHER = { id: '11111111-2222-4333-8444-555555555555', name: 'ops' } as const;

function outcome(texts: readonly string[]): string {
  const read = scrapePromptText(prompt(...texts));
  return read.ok ? 'ok' : `${read.error.code} ${read.error.message}`;
}

test('an empty frame of the cancelled turn is no cancelled turn, wherever it stands', () => {
  const event = chat(ALICE, 'new');
  const empty = '<what-you-were-working-on>\n</what-you-were-working-on>';
  const read = scrapePromptText(prompt(eventSection('v5', [event], ENGINEERING), empty));
  expect(read.ok && [read.context.events.map((e) => e.id), read.context.cancelledEvents]).toEqual([
    [eventId(event)],
    [],
  ]);
});

test('two cancelled turns with events are ambiguous', () => {
  const [prior, current] = mergeSections('v5', 'steer', [chat(ALICE, 'old')], [chat(ALICE, 'new')], ENGINEERING);
  expect(outcome([prior ?? '', prior ?? '', current ?? ''])).toBe(
    'ambiguous_prompt_text /prompt: more than one Buzz event section in one prompt',
  );
});

test('a context section that names another channel than the events: exact message', () => {
  const context = contextSection('v4', 'channel', OTHER);
  expect(outcome([context, eventSection('v4', [chat(ALICE, 'a')], ENGINEERING)])).toBe(
    'invalid_prompt_text /prompt: the context section names another channel than the events',
  );
});

test('the channel name comes from the first event that renders one', () => {
  const text = eventSection('v4', [chat(ALICE, 'a'), chat(ALICE, 'b')], ENGINEERING).replace(
    `Channel: ${ENGINEERING.name} (#${ENGINEERING.id})`,
    `Channel: ${ENGINEERING.id}`,
  );
  expect(text.split(`Channel: ${ENGINEERING.id}\n`)).toHaveLength(2);
  const read = scrapePromptText(prompt(text));
  expect(read.ok && read.context.channelName).toBe(ENGINEERING.name);
});

test('keys with nothing to say are absent, not undefined: reply, senderLabel, channelName', () => {
  // V1 renders no id (so no reply anchor) and no label; a bare UUID names no channel.
  const read = scrapePromptText(prompt(eventSection('v1', [chat(ALICE, 'a')], { id: ENGINEERING.id })));
  expect(read.ok).toBe(true);
  if (!read.ok) return;
  expect(Object.hasOwn(read.context, 'reply')).toBe(false);
  expect(Object.hasOwn(read.context, 'channelName')).toBe(false);
  expect(Object.keys(read.context.events[0] ?? {})).toEqual(['id', 'sender', 'kind', 'createdAt', 'content']);
  const rich = scrapePromptText(prompt(eventSection('v4', [chat(ALICE, 'a')], ENGINEERING)));
  expect(rich.ok && Object.keys(rich.context.events[0] ?? {})).toEqual([
    'id',
    'sender',
    'kind',
    'createdAt',
    'content',
    'tags',
  ]);
});

test('events with the same Tags line get tag arrays of their own', () => {
  const read = scrapePromptText(prompt(eventSection('v4', [chat(ALICE, 'a'), chat(ALICE, 'b')], ENGINEERING)));
  expect(read.ok).toBe(true);
  if (!read.ok) return;
  const [first, second] = read.context.events;
  expect(first?.tags).toEqual(second?.tags);
  expect(first?.tags?.[0]).not.toBe(second?.tags?.[0]);
  expect(first?.tags?.[0]).toEqual(['h', ENGINEERING.id]);
});
