/**
 * The kept-session re-prompt after a harness restart: the journaled turn is sent again in a
 * `<your-interrupted-turn-was-handling>` frame with no new event section. It reads, with the
 * restored events as `cancelledEvents` and no `events`.
 */
import { expect, test } from 'vitest';
import { readBuzzContext, scrapePromptText } from '../../src/index.js';
import { ALICE, BOB, chat, ENGINEERING, scrapedRich, T0 } from './fixtures.js';
import { contextSection, eventId, mergeSections, prompt, restartSections } from './render.js';

const first = chat(ALICE, 'draft the migration plan', { created_at: T0 });
const second = chat(BOB, 'and the rollback', { created_at: T0 + 5 });
const expected = scrapedRich;

test.each([[[first]], [[first, second]]])(
  'a restart re-prompt of %# reads: restored events as cancelledEvents, no events',
  (restored) => {
    const read = readBuzzContext({
      sessionId: 's',
      prompt: prompt(contextSection('v5', 'channel', ENGINEERING), ...restartSections(restored, ENGINEERING)),
    });
    expect(read).toEqual({
      ok: true,
      context: {
        source: 'prompt-text',
        trust: 'scraped',
        channelId: ENGINEERING.id,
        channelType: 'channel',
        channelName: 'engineering',
        events: [],
        cancelledEvents: restored.map(expected),
        diagnostics: [
          "a restart re-prompt: the interrupted turn's events are in cancelledEvents, and no new event came",
        ],
      },
    });
  },
);

test('without a context block the channel comes from the restored events', () => {
  const read = scrapePromptText(prompt(...restartSections([first], ENGINEERING)));
  expect(read.ok && [read.context.channelId, read.context.channelType, read.context.channelName]).toEqual([
    ENGINEERING.id,
    'unknown',
    'engineering',
  ]);
});

test('a steer prior frame alone is still not a turn: only the restart frame may stand alone', () => {
  const [priorFrame] = mergeSections('v5', 'steer', [first], [second], ENGINEERING);
  const read = scrapePromptText(prompt(priorFrame ?? ''));
  expect(read.ok ? 'ok' : [read.error.code, read.error.reason]).toEqual([
    'invalid_prompt_text',
    'the Buzz sections hold no event of this turn',
  ]);
});

test('a restart frame beside a new event section is an ordinary merge', () => {
  const [, current] = mergeSections('v5', 'steer', [first], [second], ENGINEERING);
  const read = scrapePromptText(prompt(...restartSections([first], ENGINEERING).slice(0, 1), current ?? ''));
  expect(read.ok && [read.context.events.map((e) => e.id), read.context.cancelledEvents.map((e) => e.id)]).toEqual([
    [eventId(second)],
    [eventId(first)],
  ]);
  expect(read.ok && read.context.diagnostics).toEqual([]);
});

test('two restart frames are two cancelled turns: ambiguous', () => {
  const [frame] = restartSections([first], ENGINEERING);
  const read = scrapePromptText(prompt(frame ?? '', frame ?? ''));
  expect(read.ok ? 'ok' : [read.error.code, read.error.reason]).toEqual([
    'ambiguous_prompt_text',
    'more than one Buzz event section in one prompt',
  ]);
});
