/**
 * Deterministic cases for every structural rule of the scraper (no property test needed to reach
 * them): what a head, a section, a sequence, the bounds and the assembly refuse, and the exact
 * code and message of each refusal.
 */
import { describe, expect, test } from 'vitest';
import { scrapePromptText, toNpub } from '../../src/index.js';
import type { ScrapeOptions } from '../../src/index.js';
import { ALICE, BOB, chat, ENGINEERING, SCOUT, T0 } from './fixtures.js';
import { contextSection, EM, eventId, eventSection, mergeSections, prompt, richBlock, v2Block } from './render.js';

const OTHER = { id: '11111111-2222-4333-8444-555555555555', name: 'ops' } as const;
const ROOT = '66e7365033b645f633d1783026784fa3b324622eea8d4ab850e52ca777520a9e';

function outcome(texts: readonly string[], options?: ScrapeOptions): string | readonly string[] {
  const read = scrapePromptText(prompt(...texts), options);
  return read.ok ? read.context.diagnostics : `${read.error.code} ${read.error.message}`;
}

describe('a rich event head is read whole or refused', () => {
  const good = (): string => eventSection('v4', [chat(BOB, 'hi')], ENGINEERING);
  test.each([
    ['Event ID: ', 'Event-ID: ', 'an event block has no valid Event ID line'],
    ['Channel: ', 'Chanel: ', 'an event block has no valid Channel line'],
    ['Kind: 9', 'Kind: nine', 'an event block has no valid Kind line'],
    ['Kind: 9', 'Knd: 9', 'an event block has no valid Kind line'],
    ['From: ', 'Sender: ', 'an event block has no From line'],
    [`From: ${toNpub(BOB)}`, 'From: somebody', 'an event block has no valid From line'],
    ['Time: ', 'When: ', 'an event block has no valid Time line'],
    ['Time: 2026', 'Time: 1926', 'an event block has no valid Time line'],
    ['Content: ', 'Contents: ', 'an event block has no Content line'],
  ])('%j replaced by %j: invalid_prompt_text', (from, to, message) => {
    expect(outcome([good().replace(from, to)])).toBe(`invalid_prompt_text /prompt/0/text: ${message}`);
  });
  test.each(['v1', 'v2'] as const)('%s names its channel by bare id: a named Channel line is refused', (era) => {
    const section = eventSection(era, [chat(BOB, 'hi')], ENGINEERING);
    const named = section.replace(`Channel: ${ENGINEERING.id}`, `Channel: ${ENGINEERING.name} (#${ENGINEERING.id})`);
    expect(named).not.toBe(section);
    expect(outcome([named])).toBe('invalid_prompt_text /prompt/0/text: an event block has no valid Channel line');
  });
  test('npub and hex that disagree', () => {
    expect(outcome([good().replace(`hex: ${BOB}`, `hex: ${ALICE}`)])).toBe(
      "invalid_prompt_text /prompt/0/text: a sender's npub and hex disagree",
    );
  });
});

describe('bounds apply to scraped events', () => {
  const two = (): string[] => [eventSection('v4', [chat(ALICE, 'one'), chat(ALICE, 'two')], ENGINEERING)];
  test.each([
    [{ maxEvents: 1 }, 'more events than maxEvents allows'],
    [{ maxContentLength: 2 }, 'an event content is longer than maxContentLength'],
    [{ maxTags: 1 }, 'an event has more tags than maxTags allows'],
    [{ maxTagValues: 1 }, 'a tag has more values than maxTagValues allows'],
    [{ maxTagValueLength: 36 }, 'a tag value is longer than maxTagValueLength'],
  ])('%j', (limits, message) => {
    expect(outcome(two(), { limits })).toBe(`limit_exceeded /prompt: ${message}`);
  });
  test('at the bounds exactly, the events read', () => {
    const limits = { maxEvents: 2, maxContentLength: 3, maxTags: 2, maxTagValues: 2, maxTagValueLength: 64 };
    expect(outcome(two(), { limits })).toEqual([]);
  });
  test('the cancelled events are bounded too', () => {
    const texts = mergeSections(
      'v4',
      'steer',
      [chat(ALICE, 'a long cancelled one')],
      [chat(ALICE, 'new')],
      ENGINEERING,
    );
    expect(outcome(texts, { limits: { maxContentLength: 5 } })).toBe(
      'limit_exceeded /prompt: an event content is longer than maxContentLength',
    );
  });
  test('text longer than any delivery within the limits is refused before it is read', () => {
    // 2 × (maxEvents + 1) × (maxContentLength + 4096) = 16,388 characters.
    const limits = { maxEvents: 1, maxContentLength: 1 };
    const long = eventSection('v4', [chat(ALICE, 'x'.repeat(16_388))], ENGINEERING);
    expect(outcome([long], { limits })).toBe(
      'limit_exceeded /prompt: the prompt text is longer than the limits allow for any delivery',
    );
    const fits = eventSection('v4', [chat(ALICE, 'x')], ENGINEERING);
    expect(outcome([fits, ' '.repeat(16_388 - fits.length)], { limits })).toEqual([]);
    expect(outcome([fits, ' '.repeat(16_389 - fits.length)], { limits })).toBe(
      'limit_exceeded /prompt: the prompt text is longer than the limits allow for any delivery',
    );
  });
});

describe('sections and sequences', () => {
  test('a batch header must be followed by a blank line', () => {
    const text = eventSection('v4', [chat(ALICE, 'a'), chat(ALICE, 'b')], ENGINEERING).replace(
      ' events]\n\n',
      ' events]\n',
    );
    expect(outcome([text])).toBe('invalid_prompt_text /prompt/0/text: a batch header is not followed by a blank line');
  });
  test.each(['v4', 'v5'] as const)('%s: a batch must start with separator 1', (era) => {
    const text = eventSection(era, [chat(ALICE, 'a'), chat(ALICE, 'b')], ENGINEERING).replace('Event 1 (', 'Event 7 (');
    expect(outcome([text])).toBe(
      'invalid_prompt_text /prompt/0/text: a batch does not start with its first event separator',
    );
  });
  test.each(['v1', 'v2'] as const)('%s: a batch must start with separator 1', (era) => {
    const events = [chat(ALICE, 'a', { kind: 40_001 }), chat(BOB, 'b', { kind: 40_001 })];
    const text = eventSection(era, events, { id: ENGINEERING.id }).replace('--- Event 1 ', '--- Event 7 ');
    expect(outcome([text])).toBe(
      'invalid_prompt_text /prompt/0/text: a batch does not start with its first event separator',
    );
  });
  test('text after an XML frame that is neither a section nor a closing note', () => {
    const text = `${eventSection('v5', [chat(ALICE, 'a')], ENGINEERING)}\nafterwards`;
    expect(outcome([text])).toBe(
      'invalid_prompt_text /prompt/0/text: text after a Buzz section is neither a section nor a closing note',
    );
  });
  test('a closing note after an XML frame in the same block ends the sequence', () => {
    const text = `${eventSection('v5', [chat(ALICE, 'a')], ENGINEERING)}\nNote: done`;
    expect(outcome([text])).toEqual([]);
  });
  test('more than four sections in one block', () => {
    const frame = eventSection('v5', [chat(ALICE, 'a')], ENGINEERING);
    expect(outcome([Array.from({ length: 5 }, () => frame).join('\n')])).toBe(
      'invalid_prompt_text /prompt/0/text: too many Buzz sections in one prompt',
    );
  });
  test.each([
    ['on the next line', '\n'],
    ['after a blank line', '\n\n'],
  ])('an empty XML merge frame (the V5 native-steer marker), closed %s', (_, gap) => {
    const marker = `<new-message-arrived-while-you-were-working>${gap}</new-message-arrived-while-you-were-working>`;
    const event = chat(ALICE, 'steered');
    const read = scrapePromptText(prompt(marker, eventSection('v5', [event], ENGINEERING)));
    expect(read.ok && [read.context.events.map((e) => e.id), read.context.diagnostics]).toEqual([[eventId(event)], []]);
  });
  test('an XML batch ends at its closing tag after a blank line', () => {
    const events = [chat(ALICE, 'a'), chat(ALICE, 'b')];
    const text = eventSection('v5', events, ENGINEERING).replace('\n</buzz-events>', '\n\n</buzz-events>');
    const read = scrapePromptText(prompt(text));
    expect(read.ok && read.context.events.map((e) => e.content)).toEqual(['a', 'b']);
  });
  test('a blank line then anything but a separator or the close is content of an XML frame', () => {
    const event = chat(ALICE, 'a\nTags: []\n\nmore');
    const read = scrapePromptText(prompt(eventSection('v5', [event], ENGINEERING)));
    expect(read.ok && read.context.events.map((e) => e.content)).toEqual(['a\nTags: []\n\nmore']);
  });
  test('a Tags line right after the section header is no event', () => {
    expect(outcome(['[Buzz event: @mention]\nTags: []'])).toBe(
      'invalid_prompt_text /prompt/0/text: an event block has no valid Event ID line',
    );
  });
  test('a block that is only a section header', () => {
    expect(outcome(['[Buzz event: @mention]'])).toBe(
      'invalid_prompt_text /prompt/0/text: an event block has no valid Event ID line',
    );
    expect(outcome([`[Buzz events ${EM} 2 events]`])).toBe(
      'invalid_prompt_text /prompt/0/text: a batch header is not followed by a blank line',
    );
  });
  test('a bracket block with a trailing newline after its last event', () => {
    const event = chat(ALICE, 'a');
    const read = scrapePromptText(prompt(`${eventSection('v4', [event], ENGINEERING)}\n`));
    expect(read.ok && read.context.events.map((e) => [e.id, e.content])).toEqual([[eventId(event), 'a']]);
  });
  test('two blank lines after the last event are not what a host renders', () => {
    expect(outcome([`${eventSection('v4', [chat(ALICE, 'a')], ENGINEERING)}\n\n`])).toBe(
      'invalid_prompt_text /prompt/0/text: an event block has no Tags line where its section expects one',
    );
  });
  test('an event block without any Tags line', () => {
    const text = eventSection('v4', [chat(ALICE, 'a')], ENGINEERING).replace(/\nTags: .*/su, '');
    expect(outcome([text])).toBe(
      'invalid_prompt_text /prompt/0/text: an event block has no Tags line where its section expects one',
    );
  });
});

describe('assembling the context', () => {
  test('two event sections of this turn', () => {
    const one = eventSection('v4', [chat(ALICE, 'a')], ENGINEERING);
    expect(outcome([one, one])).toBe('ambiguous_prompt_text /prompt: more than one Buzz event section in one prompt');
  });
  test('only the cancelled turn of a merge', () => {
    const [prior] = mergeSections('v4', 'steer', [chat(ALICE, 'old')], [chat(ALICE, 'new')], ENGINEERING);
    expect(outcome([prior ?? ''])).toBe('invalid_prompt_text /prompt: the Buzz sections hold no event of this turn');
  });
  test('the cancelled turn after the new one', () => {
    const [prior, current] = mergeSections('v4', 'steer', [chat(ALICE, 'old')], [chat(ALICE, 'new')], ENGINEERING);
    expect(outcome([current ?? '', prior ?? ''])).toBe(
      'invalid_prompt_text /prompt: the cancelled turn of a merge comes after the new one',
    );
  });
  test('a cancelled turn in bracket headers before new events in an XML frame', () => {
    const [prior] = mergeSections('v4', 'steer', [chat(ALICE, 'old')], [chat(ALICE, 'new')], ENGINEERING);
    const [, current] = mergeSections('v5', 'steer', [chat(ALICE, 'old')], [chat(ALICE, 'new')], ENGINEERING);
    expect(outcome([prior ?? '', current ?? ''])).toBe(
      'invalid_prompt_text /prompt: the Buzz sections of one prompt mix bracket headers and XML frames',
    );
  });
  test.each(['v4', 'v5'] as const)('%s: a cancelled turn before a plain event section', (era) => {
    const [prior] = mergeSections(era, 'steer', [chat(ALICE, 'old')], [chat(ALICE, 'new')], ENGINEERING);
    expect(outcome([prior ?? '', eventSection(era, [chat(ALICE, 'new')], ENGINEERING)])).toBe(
      'invalid_prompt_text /prompt: a cancelled turn is followed by a plain event section, not by a merge section',
    );
  });
  test('an empty frame alone holds no event of this turn', () => {
    const name = 'new-message-arrived-while-you-were-working';
    expect(outcome([`<${name}>\n</${name}>`])).toBe(
      'invalid_prompt_text /prompt: the Buzz sections hold no event of this turn',
    );
  });
  test('events in different channels', () => {
    // Without h tags: the Channel lines alone disagree.
    const text = eventSection('v4', [chat(ALICE, 'a', { tags: [] }), chat(ALICE, 'b', { tags: [] })], ENGINEERING);
    const second = text.lastIndexOf(`(#${ENGINEERING.id})`);
    const moved = `${text.slice(0, second)}(#${OTHER.id})${text.slice(second + ENGINEERING.id.length + 3)}`;
    expect(outcome([moved])).toBe('invalid_prompt_text /prompt: the events name different channels');
  });
  test('a cancelled event in another channel', () => {
    const untagged = { tags: [] };
    const [prior, current] = mergeSections(
      'v4',
      'steer',
      [chat(ALICE, 'old', untagged)],
      [chat(ALICE, 'new', untagged)],
      ENGINEERING,
    );
    const other = (prior ?? '').replace(`(#${ENGINEERING.id})`, `(#${OTHER.id})`);
    expect(outcome([other, current ?? ''])).toBe('invalid_prompt_text /prompt: the events name different channels');
  });
  test.each(['v3', 'v4', 'v5'] as const)('%s: a Channel line that disagrees with its h tag', (era) => {
    const text = eventSection(era, [chat(ALICE, 'a')], ENGINEERING).replace(`(#${ENGINEERING.id})`, `(#${OTHER.id})`);
    expect(outcome([text])).toBe(
      'invalid_prompt_text /prompt/0/text: an event block names another channel than its h tag',
    );
  });
  test('an h tag without a value names no channel: the Channel line stands', () => {
    const event = chat(ALICE, 'a', { tags: [['h']] });
    const read = scrapePromptText(prompt(eventSection('v4', [event], ENGINEERING)));
    expect(read.ok && [read.context.channelId, read.context.events.map((e) => e.tags)]).toEqual([
      ENGINEERING.id,
      [[['h']]],
    ]);
  });
  test('a context section without a readable Channel line', () => {
    const context = contextSection('v4', 'dm', ENGINEERING).replace(`(#${ENGINEERING.id})`, '(#nope)');
    const read = scrapePromptText(prompt(context, eventSection('v4', [chat(ALICE, 'a')], ENGINEERING)));
    expect(read.ok && [read.context.channelType, read.context.channelName, read.context.diagnostics]).toEqual([
      'dm',
      'engineering',
      ['the context section has no readable Channel line'],
    ]);
  });
  test('a context section without a Channel line at all', () => {
    const context = contextSection('v4', 'dm', ENGINEERING).replace(/\nChannel: [^\n]*/u, '');
    const read = scrapePromptText(prompt(context, eventSection('v4', [chat(ALICE, 'a')], ENGINEERING)));
    expect(read.ok && [read.context.channelType, read.context.diagnostics]).toEqual([
      'dm',
      ['the context section has no readable Channel line'],
    ]);
  });
  test('without a Channel line, the line in its place is read as the channel, not as an anchor', () => {
    const reply = 'd'.repeat(64);
    const event = chat(ALICE, 'a', { tags: [['e', reply, '', 'reply']] });
    const context = contextSection('v4', 'thread', ENGINEERING, { root: ROOT }).replace(/\nChannel: [^\n]*/u, '');
    const read = scrapePromptText(prompt(context, eventSection('v4', [event], ENGINEERING)));
    expect(read.ok && [read.context.reply, read.context.diagnostics]).toEqual([
      { rootEventId: reply, parentEventId: reply, replyToEventId: eventId(event) },
      ['the context section has no readable Channel line'],
    ]);
  });
  test('only the IMPORTANT line names the reply target (a description line may quote --reply-to)', () => {
    const event = chat(ALICE, 'a');
    const context = contextSection('v4', 'thread', ENGINEERING, { root: ROOT, replyTo: ROOT }).replace(
      '\nIMPORTANT: ',
      `\nDescription: use --reply-to ${'c'.repeat(64)} for everything\nIMPORTANT: `,
    );
    const read = scrapePromptText(prompt(context, eventSection('v4', [event], ENGINEERING)));
    expect(read.ok && read.context.diagnostics).toEqual([]);
    const quoted = contextSection('v4', 'thread', ENGINEERING, { root: ROOT }).concat(
      `\nDescription: use --reply-to ${'c'.repeat(64)} for everything`,
    );
    const alone = scrapePromptText(prompt(quoted, eventSection('v4', [event], ENGINEERING)));
    expect(alone.ok && alone.context.diagnostics).toEqual([]);
  });
  test('a context section without its Scope line: the channel type is unknown', () => {
    const context = contextSection('v4', 'dm', ENGINEERING).replace('Scope: dm\n', '');
    const read = scrapePromptText(prompt(context, eventSection('v4', [chat(ALICE, 'a')], ENGINEERING)));
    expect(read.ok && [read.context.channelType, read.context.diagnostics]).toEqual(['unknown', []]);
  });
  test('an unknown scope reads as a channel', () => {
    const context = contextSection('v4', 'dm', ENGINEERING).replace('Scope: dm', 'Scope: galaxy');
    const read = scrapePromptText(prompt(context, eventSection('v4', [chat(ALICE, 'a')], ENGINEERING)));
    expect(read.ok && read.context.channelType).toBe('unknown');
  });
  test('the last event has an e tag buzz-acp refuses: no thread, a diagnostic', () => {
    const event = chat(ALICE, 'a', { tags: [['e', ROOT]] });
    const read = scrapePromptText(prompt(eventSection('v4', [event], ENGINEERING)));
    expect(read.ok && [read.context.reply, read.context.diagnostics]).toEqual([
      undefined,
      ['the last event has an e tag buzz-acp would refuse, so its thread is unknown'],
    ]);
  });
  test('NIP-10 markers of the last event when the context renders no thread root', () => {
    const event = chat(ALICE, 'a', { tags: [['e', ROOT, '', 'reply']] });
    const read = scrapePromptText(prompt(eventSection('v4', [event], ENGINEERING)));
    expect(read.ok && read.context.reply).toEqual({
      rootEventId: ROOT,
      parentEventId: ROOT,
      replyToEventId: eventId(event),
    });
  });
  test('a Parent line in the context', () => {
    const event = chat(ALICE, 'a');
    const parent = 'b'.repeat(64);
    const context = contextSection('v4', 'thread', ENGINEERING, { root: ROOT, parent, replyTo: ROOT });
    const read = scrapePromptText(prompt(context, eventSection('v4', [event], ENGINEERING)));
    expect(read.ok && [read.context.reply, read.context.diagnostics]).toEqual([
      { rootEventId: ROOT, parentEventId: parent, replyToEventId: eventId(event) },
      [],
    ]);
  });
  test.each([
    ['the thread root', () => ROOT, []],
    ['the last event', (id: string) => id, []],
    ['another event', () => 'c'.repeat(64), ['the reply instruction names neither the thread root nor the last event']],
  ])('a reply instruction naming %s', (_, target, diagnostics) => {
    const event = chat(ALICE, 'a');
    const context = contextSection('v4', 'thread', ENGINEERING, { root: ROOT, replyTo: target(eventId(event)) });
    const read = scrapePromptText(prompt(context, eventSection('v4', [event], ENGINEERING)));
    expect(read.ok && read.context.diagnostics).toEqual(diagnostics);
  });
  test.each([
    ['a root marker only', [['e', ROOT, '', 'root']], { rootEventId: ROOT, parentEventId: null }],
    ['no e tag', [['p', SCOUT]], { rootEventId: 'self', parentEventId: null }],
    [
      'root and reply markers',
      [
        ['e', ROOT, '', 'root'],
        ['e', 'd'.repeat(64), '', 'reply'],
      ],
      { rootEventId: ROOT, parentEventId: 'd'.repeat(64) },
    ],
  ])('thread of the last event from its tags: %s', (_, tags, anchors) => {
    const event = chat(ALICE, 'a', { tags });
    const read = scrapePromptText(prompt(eventSection('v4', [event], ENGINEERING)));
    const id = eventId(event);
    expect(read.ok && read.context.reply).toEqual({
      rootEventId: anchors.rootEventId === 'self' ? id : anchors.rootEventId,
      parentEventId: anchors.parentEventId,
      replyToEventId: id,
    });
  });
  test('a Thread root line without a Parent line: the root is the parent', () => {
    const event = chat(ALICE, 'a', { tags: [['e', 'd'.repeat(64), '', 'reply']] });
    const context = contextSection('v4', 'thread', ENGINEERING, { root: ROOT });
    const read = scrapePromptText(prompt(context, eventSection('v4', [event], ENGINEERING)));
    expect(read.ok && read.context.reply).toEqual({
      rootEventId: ROOT,
      parentEventId: ROOT,
      replyToEventId: eventId(event),
    });
  });
  test.each([
    ['a context with the name', true, ENGINEERING, 'engineering'],
    ['no context: the name of the events', false, ENGINEERING, 'engineering'],
    ['a context with a bare UUID: the name of the events', true, { id: ENGINEERING.id }, 'engineering'],
  ])('channel name from %s', (_, withContext, contextChannel, name) => {
    const texts = [eventSection('v4', [chat(ALICE, 'a')], ENGINEERING)];
    if (withContext) texts.unshift(contextSection('v4', 'channel', contextChannel));
    const read = scrapePromptText(prompt(...texts));
    expect(read.ok && read.context.channelName).toBe(name);
  });
  test('no name anywhere: no channelName key', () => {
    const read = scrapePromptText(prompt(eventSection('v4', [chat(ALICE, 'a')], { id: ENGINEERING.id })));
    expect(read.ok && Object.hasOwn(read.context, 'channelName')).toBe(false);
  });
  test('V1 events have no ids, so no reply anchors', () => {
    const read = scrapePromptText(prompt(eventSection('v1', [chat(ALICE, 'a')], { id: ENGINEERING.id })));
    expect(read.ok && [read.context.reply, read.context.events[0]?.id]).toEqual([undefined, null]);
  });
});

describe('one-string prompts', () => {
  test('more than eight candidate headers', () => {
    const quoted = Array.from({ length: 8 }, () => '[Sprout event: x]').join('\n\n');
    const text = eventSection('v3', [chat(ALICE, `look:\n\n${quoted}`)], ENGINEERING);
    expect(outcome([`[System]\nbe nice\n\n${text}`])).toBe(
      'ambiguous_prompt_text /prompt: the prompt text has too many Buzz section headers to tell the real one',
    );
  });
  test('exactly eight candidate headers: each is tried, the one that reads whole is taken', () => {
    const quoted = Array.from({ length: 7 }, () => '[Sprout event: x]').join('\n\n');
    const event = chat(ALICE, `look:\n\n${quoted}`);
    const read = scrapePromptText(prompt(`[System]\nbe nice\n\n${eventSection('v3', [event], ENGINEERING)}`));
    expect(read.ok && read.context.events.map((e) => e.content)).toEqual([event.content]);
  });
  test('no candidate reads whole: the first failure', () => {
    expect(outcome(['[System]\nhi\n\n[Sprout event: x]\nChannel: nowhere'])).toBe(
      'invalid_prompt_text /prompt: an event block has no valid Channel line',
    );
  });
  test('no Buzz header at all', () => {
    expect(outcome(['just a message'])).toBe(
      'no_buzz_context /prompt: the request has no _meta.buzz and its prompt text has no Buzz event block',
    );
  });
  test('a one-string prompt whose first line is empty: the header on its second line is a candidate', () => {
    const event = chat(ALICE, 'a');
    const read = scrapePromptText(prompt(`\n${eventSection('v3', [event], ENGINEERING)}`));
    expect(read.ok && read.context.events.map((e) => e.id)).toEqual([eventId(event)]);
  });
  test.each([1, 2, 3])('a header after %i empty lines is a candidate', (blank) => {
    const event = chat(ALICE, 'a');
    const text = `[System]\nhi\n${'\n'.repeat(blank)}${eventSection('v3', [event], ENGINEERING)}`;
    const read = scrapePromptText(prompt(text));
    expect(read.ok && read.context.events.map((e) => e.id)).toEqual([eventId(event)]);
  });
  test('a context section after empty lines, before the events, is read', () => {
    const event = chat(ALICE, 'a');
    const text = `[System]\nhi\n\n\n${contextSection('v3', 'dm', ENGINEERING)}\n\n${eventSection('v3', [event], ENGINEERING)}`;
    const read = scrapePromptText(prompt(text));
    expect(read.ok && [read.context.channelType, read.context.channelName]).toEqual(['dm', ENGINEERING.name]);
  });
  test('blocks of a one-string prompt are joined by an empty line: a header that starts a block after one is a candidate', () => {
    const event = chat(ALICE, 'a');
    const read = scrapePromptText(prompt('[System]\nhi', `\n${eventSection('v3', [event], ENGINEERING)}`));
    expect(read.ok && read.context.events.map((e) => e.id)).toEqual([eventId(event)]);
  });
  test('a header that does not start its line is no candidate', () => {
    expect(outcome([`> ${eventSection('v3', [chat(ALICE, 'a')], ENGINEERING)}`])).toBe(
      'no_buzz_context /prompt: the request has no _meta.buzz and its prompt text has no Buzz event block',
    );
  });
  test('a one-string merge: the cancelled section and the new one read as one sequence, not two', () => {
    const old = chat(ALICE, 'old');
    const now = chat(ALICE, 'new');
    const sections = mergeSections('v4', 'steer', [old], [now], ENGINEERING);
    const read = scrapePromptText(prompt(['[System]\nhi', ...sections].join('\n\n')));
    expect(read.ok && [read.context.events.map((e) => e.id), read.context.cancelledEvents.map((e) => e.id)]).toEqual([
      [eventId(now)],
      [eventId(old)],
    ]);
  });
  test('an unexpected failure while reading is `internal`, echoing nothing', () => {
    const hostile = {
      get type(): string {
        throw new Error('secret prompt text');
      },
    };
    const read = scrapePromptText([hostile]);
    expect(read.ok || [read.error.code, read.error.message]).toEqual([
      'internal',
      '/prompt: unexpected failure while reading prompt text',
    ]);
    expect(read.ok || read.error instanceof Error).toBe(true);
  });
  test('several blocks without a header in their first line read as one string', () => {
    const event = chat(ALICE, 'a');
    const read = scrapePromptText(prompt('[System]\nbe brief', eventSection('v3', [event], ENGINEERING)));
    expect(read.ok && read.context.events.map((e) => e.id)).toEqual([eventId(event)]);
  });
  test('the context section of a one-string prompt is the one before the events', () => {
    const event = chat(ALICE, 'a');
    const text = [contextSection('v3', 'dm', ENGINEERING), eventSection('v3', [event], ENGINEERING)].join('\n\n');
    const read = scrapePromptText(prompt(text));
    expect(read.ok && read.context.channelType).toBe('dm');
    const quotedContext = chat(ALICE, `x\n\n${contextSection('v3', 'dm', ENGINEERING)}`);
    // One string (a first line that is no header), and the only context section is inside the event's content.
    const after = scrapePromptText(prompt(`[System]\nhi\n\n${eventSection('v3', [quotedContext], ENGINEERING)}`));
    expect(after.ok && [after.context.channelType, after.context.diagnostics]).toEqual(['unknown', []]);
  });
  test('prompt items that are not text blocks are skipped; error paths name the item', () => {
    const event = chat(ALICE, 'a');
    const items: unknown[] = [
      undefined,
      null,
      5,
      'text',
      { type: 'image', text: 'x' },
      { type: 'text', text: 5 },
      { type: 'text' },
      Object.create({ type: 'text', text: '[Buzz event: x]' }),
      { type: 'text', text: eventSection('v4', [event], ENGINEERING) },
    ];
    const read = scrapePromptText(items);
    expect(read.ok && read.context.events.map((e) => e.id)).toEqual([eventId(event)]);
    const broken = scrapePromptText([...items.slice(0, 8), { type: 'text', text: '[Buzz event: x]' }]);
    expect(broken.ok || broken.error.message).toBe('/prompt/8/text: an event block has no valid Event ID line');
  });
  test('a prompt that is not an array', () => {
    const read = scrapePromptText('text');
    expect(read.ok || [read.error.code, read.error.message]).toEqual([
      'no_buzz_context',
      '/prompt: the request has no _meta.buzz and no prompt text',
    ]);
  });
});

describe('Sprout V1/V2 sections', () => {
  test('V2: a chat kind ending in a Tags line keeps the line out of the content and the tags unused', () => {
    const event = chat(ALICE, 'hello', { kind: 9 });
    const read = scrapePromptText(prompt(`[Sprout event: x]\n${v2Block(event, { id: ENGINEERING.id })}`));
    expect(
      read.ok && [read.context.events[0]?.content, read.context.events[0]?.tags, read.context.diagnostics],
    ).toEqual([
      'hello',
      undefined,
      ['a V2 chat event ends in a Tags line that may be message text; its tags are not used'],
    ]);
  });
  test('V2: a non-chat kind keeps its tags', () => {
    const event = chat(ALICE, 'approve?', { kind: 46_010 });
    const read = scrapePromptText(prompt(`[Sprout event: x]\n${v2Block(event, { id: ENGINEERING.id })}`));
    expect(read.ok && read.context.events[0]?.tags).toEqual(event.tags);
  });
  test('V2: a named channel display is not what V2 renders', () => {
    const event = chat(ALICE, 'a', { kind: 40_001 });
    const named = v2Block(event, ENGINEERING).replace(`Channel: ${ENGINEERING.id}`, `Channel: x (#${ENGINEERING.id})`);
    expect(outcome([`[Sprout event: x]\n${named}`])).toBe(
      'invalid_prompt_text /prompt/0/text: an event block has no valid Channel line',
    );
  });
  test('V1: a header that overstates its count', () => {
    const events = [chat(ALICE, 'a'), chat(ALICE, 'b')];
    const text = eventSection('v1', events, { id: ENGINEERING.id }).replace(`${EM} 2 events`, `${EM} 3 events`);
    expect(outcome([text])).toEqual(['the batch header declares 3 events; 2 were found']);
  });
  test('V1: a broken second block', () => {
    const events = [chat(ALICE, 'a'), chat(ALICE, 'b', { created_at: T0 + 1 })];
    const text = eventSection('v1', events, { id: ENGINEERING.id }).replace(/Time: [^\n]*01\+00:00/u, 'Time: later');
    expect(outcome([text])).toBe('invalid_prompt_text /prompt/0/text: an event block has no valid Time line');
  });
  test.each(['v1', 'v2'] as const)('%s: a later block without a Channel line', (era) => {
    // The section remembers the first block's Channel value; a later block with none is refused, not looked up.
    const events = [chat(ALICE, 'a', { kind: 40_001 }), chat(BOB, 'b', { kind: 40_001 })];
    const text = eventSection(era, events, { id: ENGINEERING.id });
    const second = text.lastIndexOf(`Channel: ${ENGINEERING.id}\n`);
    const broken = `${text.slice(0, second)}${text.slice(second + `Channel: ${ENGINEERING.id}\n`.length)}`;
    expect(outcome([broken])).toBe('invalid_prompt_text /prompt/0/text: an event block has no valid Channel line');
  });
  test('V1: a separator not after a blank line is content', () => {
    const events = [chat(ALICE, 'a\n--- Event 2 ---\nb'), chat(BOB, 'c')];
    const read = scrapePromptText(prompt(eventSection('v1', events, { id: ENGINEERING.id })));
    expect(read.ok && read.context.events.map((e) => e.content)).toEqual(['a\n--- Event 2 ---\nb', 'c']);
  });
  test('V1: a separator of a later event quoted in an earlier one, before the real one, is content', () => {
    const events = [chat(ALICE, 'a\n\n--- Event 3 ---\nx'), chat(BOB, 'b'), chat(ALICE, 'c')];
    const read = scrapePromptText(prompt(eventSection('v1', events, { id: ENGINEERING.id })));
    expect(read.ok && read.context.events.map((e) => e.content)).toEqual(['a\n\n--- Event 3 ---\nx', 'b', 'c']);
  });
  test('V1: content ending in a newline keeps it, in every block', () => {
    const events = [chat(ALICE, 'a\n'), chat(BOB, 'b\n')];
    const read = scrapePromptText(prompt(eventSection('v1', events, { id: ENGINEERING.id })));
    expect(read.ok && read.context.events.map((e) => e.content)).toEqual(['a\n', 'b\n']);
  });
  test('V2: a Sprout header alone', () => {
    expect(outcome(['[Sprout event: x]'])).toBe(
      'invalid_prompt_text /prompt/0/text: an event block has no valid Channel line',
    );
  });
  test('V2: a Tags line that is not JSON of string arrays stays content', () => {
    const event = chat(ALICE, 'hello', { kind: 40_001 });
    const text = `[Sprout event: x]\n${v2Block(event, { id: ENGINEERING.id })}\nTags: [1]`;
    const read = scrapePromptText(prompt(text));
    expect(read.ok && [read.context.events[0]?.content, read.context.events[0]?.tags]).toEqual([
      'hello\nTags: [1]',
      undefined,
    ]);
  });
  test('V1 single: content that ends in a newline keeps it', () => {
    const read = scrapePromptText(prompt(eventSection('v1', [chat(ALICE, 'a\n')], { id: ENGINEERING.id })));
    expect(read.ok && read.context.events.map((e) => e.content)).toEqual(['a\n']);
  });
  test('V1: a last content line that looks like tags is content, never tags', () => {
    const read = scrapePromptText(prompt(eventSection('v1', [chat(ALICE, 'a\nTags: []')], { id: ENGINEERING.id })));
    expect(read.ok && read.context.events.map((e) => [e.content, Object.hasOwn(e, 'tags')])).toEqual([
      ['a\nTags: []', false],
    ]);
  });
  test('V2 batch: the last content ending in a newline keeps it (only V1 ends its blocks with one)', () => {
    const events = [chat(ALICE, 'a', { kind: 40_001 }), chat(ALICE, 'b\n', { kind: 40_001 })];
    const read = scrapePromptText(prompt(eventSection('v2', events, { id: ENGINEERING.id })));
    expect(read.ok && read.context.events.map((e) => e.content)).toEqual(['a', 'b\n']);
  });
  test('V1 single: content to the end of the text', () => {
    const read = scrapePromptText(prompt(eventSection('v1', [chat(ALICE, 'a\n\nb')], { id: ENGINEERING.id })));
    expect(read.ok && read.context.events.map((e) => [e.content, e.kind, e.tags])).toEqual([
      ['a\n\nb', null, undefined],
    ]);
  });
});

test('a sender of another channel named in a forged rich block never leaks: SCOUT fixture stays 64 hex', () => {
  expect(richBlock(chat(SCOUT, 'x'), ENGINEERING)).toContain(`hex: ${SCOUT}`);
});
