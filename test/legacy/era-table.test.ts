/**
 * The era table (src/legacy/eras.ts): every sample block in its header comment scrapes as the era
 * it stands for, every header family introduces some era, and each family picks its block layout.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { scrapePromptText } from '../../src/index.js';
import { ERAS, type HeaderFamily, layoutOf } from '../../src/legacy/eras.js';
import { sectionHeader } from '../../src/legacy/headers.js';
import { LineText } from '../../src/legacy/line-text.js';

const source = readFileSync(new URL('../../src/legacy/eras.ts', import.meta.url), 'utf8');

/** The ```text blocks of the header comment, by the era named on the line before each. */
const samples = [...source.matchAll(/^ \* (V\d) [^\n]*\n \* ```text\n((?: \*[^\n]*\n)*?) \* ```$/gm)].map((match) => ({
  era: (match[1] ?? '').toLowerCase(),
  text: (match[2] ?? '')
    .split('\n')
    .map((line) => line.replace(/^ \* ?/, ''))
    .join('\n')
    .trimEnd(),
}));

const CHANNEL = '3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d';
const SENDER = 'c4b997143b7bbd8511f29a9911f880182270e4aaf9f8c3735106461f48681e8a';
const RICH_ID = 'b123ed7f4d1a8dca7b80b8f834bdeb80cb45ea098efef00d6e0da77197e57562';

describe('the era table', () => {
  test('the header comment holds one sample per era, in the table order', () => {
    expect(samples.map((sample) => sample.era)).toEqual(ERAS.map((row) => row.era));
  });

  test.each(samples)('the $era sample scrapes: its header family is the era’s, one event', ({ era, text }) => {
    const row = ERAS.find((candidate) => candidate.era === era);
    const header = sectionHeader(text.split('\n')[0] ?? '');
    expect(row?.headers).toContain(header?.family);
    const read = scrapePromptText([{ type: 'text', text }]);
    if (!read.ok) throw read.error;
    expect(read.context.channelId).toBe(CHANNEL);
    expect(read.context.events.map((event) => [event.id, event.sender])).toEqual([
      [row?.layout === 'rich' ? RICH_ID : null, SENDER],
    ]);
  });

  test('every header family introduces at least one era', () => {
    const families: HeaderFamily[] = ['sprout-mention', 'sprout-event', 'bracket-merge', 'buzz-event', 'xml'];
    expect(families.filter((family) => !ERAS.some((row) => row.headers.includes(family)))).toEqual([]);
  });

  // The first field line decides only for a family that spans eras of different layouts.
  const layouts: Record<HeaderFamily, Readonly<Record<string, string>>> = {
    'sprout-mention': { 'Channel: x': 'message', 'Event ID: x': 'message' },
    'sprout-event': { 'Channel: x': 'content', 'Event ID: x': 'rich', 'Kind: 9': 'content' },
    'bracket-merge': { 'Channel: x': 'rich', 'Event ID: x': 'rich' },
    'buzz-event': { 'Channel: x': 'rich' },
    xml: { 'Channel: x': 'rich' },
  };
  test.each(Object.entries(layouts) as [HeaderFamily, Record<string, string>][])(
    '%s picks its layout by the first field line',
    (family, byLine) => {
      for (const [line, layout] of Object.entries(byLine)) {
        expect([line, layoutOf(family, new LineText(`header\n${line}`), 7)]).toEqual([line, layout]);
      }
    },
  );

  test('past the end of the text a Sprout event section reads the content layout', () => {
    const text = new LineText('[Sprout event: x]');
    expect(layoutOf('sprout-event', text, text.end)).toBe('content');
  });
});
