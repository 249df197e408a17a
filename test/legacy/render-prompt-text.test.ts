/**
 * `renderPromptText` (`buzz-meta/host`): what it renders for each era reads back through
 * `scrapePromptText` and `readBuzzContext` as the events it was given (ids from V3 on, kinds from
 * V2 on, senders, times, content, the channel), merges and the V5 restart as `cancelledEvents`;
 * V4 and V5 sections are text blocks of their own; what no host of an era rendered is refused.
 */
import { describe, expect, test } from 'vitest';
import { renderPromptText, type PromptTextEvent } from '../../src/host.js';
import { readBuzzContext, scrapePromptText, type BuzzEvent } from '../../src/index.js';
import { ALICE, BOB, chat, ENGINEERING, SCOUT, scrapedRich, T0 } from './fixtures.js';
import { eventId, eventSection, restartSections } from './render.js';

const ERAS = ['v1', 'v2', 'v3', 'v4', 'v5'] as const;
const alice = (): PromptTextEvent => chat(ALICE, '@Scout can you summarize yesterday’s deploy?', { label: 'Alice' });
const bob = (): PromptTextEvent => chat(BOB, 'and the rollback\nplan, too', { created_at: T0 + 60 });

/** What the scraper reads back from `event` in `era`: V1 renders no kind, V1–V2 no id, tags and label. */
function readBack(era: (typeof ERAS)[number], event: PromptTextEvent): BuzzEvent {
  if (era === 'v3' || era === 'v4' || era === 'v5') return scrapedRich(event);
  return {
    id: null,
    sender: event.pubkey,
    kind: era === 'v1' ? null : event.kind,
    createdAt: event.created_at,
    content: event.content,
  };
}

describe('renderPromptText reads back as what it was given', () => {
  test.each(ERAS)('%s: one event and a batch, through scrapePromptText and readBuzzContext', (era) => {
    for (const events of [[alice()], [alice(), bob()]]) {
      const prompt = renderPromptText({ era, channel: ENGINEERING, events });
      const read = readBuzzContext({ sessionId: 's', prompt });
      expect(read).toMatchObject({
        ok: true,
        context: {
          source: 'prompt-text',
          trust: 'scraped',
          channelId: ENGINEERING.id,
          events: events.map((event) => readBack(era, event)),
          cancelledEvents: [],
        },
      });
      expect(scrapePromptText(prompt)).toEqual(read.ok ? { ok: true, context: read.context } : read);
    }
  });

  test('V1 to V3 are one text block; V4 and V5 send each section as a block of its own', () => {
    const context = { scope: 'channel' as const, replyTo: eventId(alice()) };
    expect(renderPromptText({ era: 'v1', channel: ENGINEERING, events: [alice()] })).toHaveLength(1);
    const v3 = renderPromptText({ era: 'v3', channel: ENGINEERING, events: [alice()], context });
    expect(v3.map((block) => block.text.split('\n')[0])).toEqual(['[Context]']);
    expect(v3[0]?.text).toContain('\n\n[Sprout event: @mention]\nEvent ID: ');
    const v4 = renderPromptText({ era: 'v4', channel: ENGINEERING, events: [alice()], context, tag: 'all' });
    expect(v4.map((block) => block.text.split('\n')[0])).toEqual(['[Context]', '[Buzz event: all]']);
    const v5 = renderPromptText({ era: 'v5', channel: ENGINEERING, events: [alice()], context });
    expect(v5.map((block) => block.text.split('\n')[0])).toEqual(['<context>', '<buzz-event type="@mention">']);
  });

  test('a V4 event, exactly', () => {
    const event = chat(ALICE, 'hi', { tags: [['h', ENGINEERING.id]] });
    expect(renderPromptText({ era: 'v4', channel: ENGINEERING, events: [event] })).toEqual([
      {
        type: 'text',
        text: [
          '[Buzz event: @mention]',
          `Event ID: ${eventId(event)}`,
          'Channel: engineering (#3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d)',
          'Kind: 9',
          'From: npub1cjuew9pm0w7c2y0jn2v3r7yqrq38pe92l8uvxu63qerp7jrgr69qgwpky5 (hex: c4b997143b7bbd8511f29a9911f880182270e4aaf9f8c3735106461f48681e8a)',
          'Time: 2026-08-29T10:40:00+00:00',
          'Content: hi',
          'Tags: [["h","3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d"]]',
        ].join('\n'),
      },
    ]);
  });

  test('a V5 tag is an attribute value: &, <, > and " are escaped', () => {
    const prompt = renderPromptText({ era: 'v5', channel: ENGINEERING, events: [alice()], tag: 'a&b<c>d"e' });
    expect(prompt[0]?.text.split('\n')[0]).toBe('<buzz-event type="a&amp;b&lt;c&gt;d&quot;e">');
  });

  /** The Parsed line a V4 host renders for one event with `tags`, if any. */
  const parsedLine = (tags: string[][]): string | undefined =>
    renderPromptText({ era: 'v4', channel: ENGINEERING, events: [chat(ALICE, 'hi', { tags })] })[0]
      ?.text.split('\n')
      .find((line) => line.startsWith('Parsed: '));

  test('the Parsed line takes the thread from e tags of four or more items marked root or reply', () => {
    const [root, parent, other] = ['a'.repeat(64), 'b'.repeat(64), 'c'.repeat(64)] as const;
    expect(
      parsedLine([
        ['e', root, '', 'root'],
        ['e', parent, '', 'reply'],
      ]),
    ).toBe(`Parsed: parent=${parent}, root=${root}`);
    expect(parsedLine([['e', root, '', 'root']])).toBe(`Parsed: parent=${root}, root=${root}`);
    expect(parsedLine([['e', parent, '', 'reply', 'extra']])).toBe(`Parsed: parent=${parent}, root=${parent}`);
    // No thread: a marker other than root or reply, an e tag of three items, the markers on another tag.
    expect(
      parsedLine([
        ['e', other, '', 'mention'],
        ['e', other, 'root'],
        ['q', other, '', 'root'],
        ['q', other, '', 'reply'],
      ]),
    ).toBe(undefined);
  });

  test('the Parsed line names each p tag with a value, joined by ", "; a bare p tag is no mention', () => {
    expect(parsedLine([['p', SCOUT], ['p'], ['p', BOB]])).toBe(`Parsed: mentions=[${SCOUT}, ${BOB}]`);
    expect(parsedLine([['p']])).toBe(undefined);
  });

  test.each(['v4', 'v5'] as const)('%s merges: the cancelled turn reads back as cancelledEvents', (era) => {
    for (const as of ['steer', 'interrupt'] as const) {
      const prompt = renderPromptText({
        era,
        channel: ENGINEERING,
        events: [bob()],
        context: { scope: 'channel' },
        cancelled: { as, events: [alice()] },
      });
      expect(prompt).toHaveLength(4);
      expect(readBuzzContext({ sessionId: 's', prompt })).toMatchObject({
        ok: true,
        context: { events: [scrapedRich(bob())], cancelledEvents: [scrapedRich(alice())] },
      });
    }
  });

  test('the V5 restart re-prompt: no new events, the interrupted ones as cancelledEvents', () => {
    const prompt = renderPromptText({
      era: 'v5',
      channel: ENGINEERING,
      events: [],
      cancelled: { as: 'restart', events: [alice(), bob()] },
    });
    expect(prompt[0]?.text.split('\n')[0]).toBe('<your-interrupted-turn-was-handling count="2">');
    expect(readBuzzContext({ sessionId: 's', prompt })).toMatchObject({
      ok: true,
      context: { events: [], cancelledEvents: [scrapedRich(alice()), scrapedRich(bob())] },
    });
  });
});

test('the restart re-prompt: the @mention tag unless one is given, then its note', () => {
  const [frame, note] = restartSections([alice()], ENGINEERING);
  expect(frame?.split('\n').slice(0, 2)).toEqual([
    '<your-interrupted-turn-was-handling>',
    '--- Event 1 (@mention) ---',
  ]);
  expect(note).toBe('Your previous turn was interrupted before it finished. Continue the work above.');
  const tagged = renderPromptText({
    era: 'v5',
    channel: ENGINEERING,
    events: [],
    cancelled: { as: 'restart', events: [alice()] },
    tag: 'all',
  });
  expect(tagged.map((block) => block.text)).toEqual([frame?.replace('(@mention)', '(all)'), note]);
});

test('a section of no events is a RangeError, not text', () => {
  expect(() => eventSection('v4', [], ENGINEERING)).toThrow(new RangeError('a section renders at least one event'));
});

describe('what no host of the era rendered is refused', () => {
  const one = [alice()];
  const cases: [string, Parameters<typeof renderPromptText>[0], string, string][] = [
    [
      'an unknown era',
      { era: 'v6' as 'v5', channel: ENGINEERING, events: one },
      '/era',
      'era must be "v1", "v2", "v3", "v4" or "v5"',
    ],
    [
      'a tag in V1',
      { era: 'v1', channel: ENGINEERING, events: one, tag: 'all' },
      '/tag',
      'V1 renders no tag: its header is [Sprout @mention]',
    ],
    ['no events', { era: 'v4', channel: ENGINEERING, events: [] }, '/events', 'a turn renders at least one event'],
    [
      'new events in a restart',
      { era: 'v5', channel: ENGINEERING, events: one, cancelled: { as: 'restart', events: one } },
      '/events',
      'a restart re-prompt carries no new events',
    ],
    [
      'a merge without cancelled events',
      { era: 'v4', channel: ENGINEERING, events: one, cancelled: { as: 'steer', events: [] } },
      '/cancelled/events',
      'cancelled needs at least one event',
    ],
    [
      'a context in V2',
      { era: 'v2', channel: ENGINEERING, events: one, context: { scope: 'dm' } },
      '/context',
      'V1 and V2 prompts have no context section',
    ],
    [
      'a merge in V1',
      { era: 'v1', channel: ENGINEERING, events: one, cancelled: { as: 'steer', events: one } },
      '/cancelled',
      'V1 and V2 prompts have no merges',
    ],
    [
      'a merge in V3',
      { era: 'v3', channel: ENGINEERING, events: one, cancelled: { as: 'interrupt', events: one } },
      '/cancelled',
      'merges are rendered for V4 and V5',
    ],
    [
      'a restart in V4',
      { era: 'v4', channel: ENGINEERING, events: [], cancelled: { as: 'restart', events: one } },
      '/cancelled/as',
      'the restart re-prompt is rendered for V5',
    ],
    [
      'an npub as a pubkey',
      { era: 'v4', channel: ENGINEERING, events: [{ ...alice(), pubkey: 'npub1x' }] },
      '/events/0/pubkey',
      'pubkey must be 64 lowercase hex digits',
    ],
    [
      'a bad cancelled pubkey',
      {
        era: 'v4',
        channel: ENGINEERING,
        events: one,
        cancelled: { as: 'steer', events: [{ ...alice(), pubkey: '' }] },
      },
      '/cancelled/events/0/pubkey',
      'pubkey must be 64 lowercase hex digits',
    ],
  ];
  test.each(cases)('%s', (_name, input, path, message) => {
    expect(() => renderPromptText(input)).toThrow(
      expect.objectContaining({ code: 'invalid_option', path, message: `${path}: ${message}` }),
    );
  });
});
