/**
 * Every era and framing, rendered by the test renderer (real NIP-01 ids), scraped back to exact
 * values through readBuzzContext.
 */
import { describe, expect, test } from 'vitest';
import { channelKey, partitionId, readBuzzContext, scrapePromptText, senderKey, threadKey } from '../../src/index.js';
import type { BuzzEvent, BuzzScrapedContext } from '../../src/index.js';
import { ALICE, BOB, chat, DM, ENGINEERING, T0 } from './fixtures.js';
import {
  contextSection,
  eventId,
  eventSection,
  mergeSections,
  prompt,
  type RenderEra,
  type RenderEvent,
} from './render.js';

const ROOT = '66e7365033b645f633d1783026784fa3b324622eea8d4ab850e52ca777520a9e';

/** What the scraper should return for an event rendered in `era`. */
function expected(event: RenderEvent, era: RenderEra): BuzzEvent {
  const rich = era === 'v3' || era === 'v4' || era === 'v5';
  const v2Tags = era === 'v2' && event.kind !== 40_001 && event.kind !== 40_002;
  return {
    id: rich ? eventId(event) : null,
    sender: event.pubkey,
    kind: era === 'v1' ? null : event.kind,
    createdAt: event.created_at,
    content: event.content,
    ...(rich || v2Tags ? { tags: event.tags } : {}),
    ...(rich && event.label !== undefined ? { senderLabel: event.label } : {}),
  };
}

function scraped(texts: string[]): BuzzScrapedContext {
  const read = readBuzzContext({ sessionId: 's', prompt: prompt(...texts) });
  if (!read.ok) throw new Error(`${read.error.code}: ${read.error.message}`);
  expect(read.context.source).toBe('prompt-text');
  return read.context as BuzzScrapedContext;
}

describe.each(['v1', 'v2', 'v3', 'v4', 'v5'] as const)('era %s', (era) => {
  const channel = era === 'v4' || era === 'v5' || era === 'v3' ? ENGINEERING : { id: ENGINEERING.id };
  const events: [RenderEvent, RenderEvent] = [
    chat(ALICE, 'hello @Scout\nsecond line', { label: 'Alice Chen', kind: era === 'v2' ? 40_001 : 9 }),
    chat(BOB, 'any update?', { created_at: T0 + 65, kind: era === 'v2' ? 40_001 : 9 }),
  ];
  test('single event', () => {
    const context = scraped([eventSection(era, [events[0]], channel)]);
    expect(context.events).toEqual([expected(events[0], era)]);
    expect(context.channelId).toBe(ENGINEERING.id);
    expect(context.channelType).toBe('unknown');
    expect(context.cancelledEvents).toEqual([]);
  });
  test('batch of two with the multi-sender diagnostic', () => {
    const context = scraped([eventSection(era, events, channel)]);
    expect(context.events).toEqual(events.map((event) => expected(event, era)));
    expect(context.diagnostics).toEqual(['2 distinct senders in this delivery']);
    expect(senderKey(context)).toBe(`buzz:pubkey:${BOB}`);
    expect(channelKey(context, { prefix: 'muxi' })).toBe(`muxi:channel:${ENGINEERING.id}`);
    expect(partitionId(context, { unit: 'sender' })).toEqual({
      id: `buzz:pubkey:${BOB}`,
      diagnostics: ["2 distinct senders in this delivery; attributed to the last event's sender"],
    });
  });
});

describe('context sections', () => {
  test('V4 thread reply: anchors from the context, channel name, scope channel', () => {
    const reply = chat(BOB, 'also see the thread above', {
      tags: [
        ['h', ENGINEERING.id],
        ['e', ROOT, '', 'reply'],
      ],
    });
    const context = scraped([
      contextSection('v4', 'thread', ENGINEERING, { root: ROOT, replyTo: ROOT }),
      eventSection('v4', [reply], ENGINEERING),
    ]);
    expect(context.channelType).toBe('channel');
    expect(context.channelName).toBe('engineering');
    expect(context.reply).toEqual({ rootEventId: ROOT, parentEventId: ROOT, replyToEventId: eventId(reply) });
    expect(threadKey(context)).toBe(`buzz:thread:${ROOT}`);
    expect(context.diagnostics).toEqual([]);
  });
  test.each(['v4', 'v5'] as const)('%s DM: channelType dm only from Scope: dm', (era) => {
    const event = chat(ALICE, 'any news?', { label: 'Alice Chen', tags: [['h', DM.id]] });
    const context = scraped([contextSection(era, 'dm', DM), eventSection(era, [event], DM)]);
    expect(context.channelType).toBe('dm');
    expect(context.channelName).toBe('DM');
    expect(context.reply).toEqual({ rootEventId: eventId(event), parentEventId: null, replyToEventId: eventId(event) });
  });
  test('V3 one string: [System], [Context] and the event section joined by blank lines', () => {
    const event = chat(ALICE, 'hi', { label: 'Alice Chen' });
    const context = scraped([
      [
        '[System]\nYou are a triage bot.',
        contextSection('v3', 'channel', ENGINEERING),
        eventSection('v3', [event], ENGINEERING),
      ].join('\n\n'),
    ]);
    expect(context.events).toEqual([expected(event, 'v3')]);
    expect(context.channelType).toBe('channel');
  });
});

describe.each(['v4', 'v5'] as const)('%s merges', (era) => {
  test.each(['steer', 'interrupt'] as const)('%s: cancelledEvents from the earlier section', (kind) => {
    const old = chat(ALICE, 'draft the migration plan', { tags: [] });
    const fresh: [RenderEvent, RenderEvent] = [
      chat(ALICE, 'actually scope it to v2 only', { created_at: T0 + 65, tags: [] }),
      chat(BOB, 'and v3', { created_at: T0 + 70 }),
    ];
    for (const current of [[fresh[0]], fresh]) {
      const context = scraped([
        contextSection(era, 'channel', ENGINEERING),
        ...mergeSections(era, kind, [old], current, ENGINEERING),
      ]);
      expect(context.cancelledEvents).toEqual([expected(old, era)]);
      expect(context.events).toEqual(current.map((event) => expected(event, era)));
    }
  });
});

test('scrapePromptText reads the same as readBuzzContext and never throws on junk', () => {
  const text = eventSection('v4', [chat(ALICE, 'hi')], ENGINEERING);
  const direct = scrapePromptText(prompt(text));
  expect(direct.ok && direct.context).toEqual(scraped([text]));
  for (const junk of [
    undefined,
    null,
    3,
    'text',
    {},
    [null, 1, 'x', { type: 'text' }, { type: 'image', text: text }],
  ]) {
    const read = scrapePromptText(junk);
    expect(read.ok ? 'ok' : read.error.code).toBe('no_buzz_context');
  }
});
