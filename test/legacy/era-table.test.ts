/**
 * The era tables (src/legacy/eras.ts): every sample block in the header comment scrapes as the era
 * it stands for and renders exactly its layout's field lines, every header family introduces some
 * era and each of its header lines is recognized as that family, and each family picks its block
 * layout.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { scrapePromptText } from '../../src/index.js';
import { type BlockLayout, ERAS, fieldsOf, HEADERS, type HeaderFamily } from '../../src/legacy/eras.js';
import { sectionHeader } from '../../src/legacy/headers.js';

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

  test.each(samples)('the $era sample renders its layout’s field lines, in order', ({ era, text }) => {
    const row = ERAS.find((candidate) => candidate.era === era);
    const labels = text
      .split('\n')
      .slice(1)
      .map((line) => /^([A-Z][A-Za-z ]*): /.exec(line)?.[1])
      .filter((label) => label !== undefined);
    const fields = fieldsOf(row?.layout ?? 'rich');
    const names = fields.map((field) => field.replace(/\?$/, ''));
    // Every line in the layout's order; only a field marked `?` may be left out.
    expect(labels).toEqual(names.filter((name, k) => !(fields[k] ?? '').endsWith('?') || labels.includes(name)));
  });

  test('each header line of the table is recognized as its family', () => {
    const lines: [string, HeaderFamily][] = [
      [HEADERS['sprout-mention'].single, 'sprout-mention'],
      [`${HEADERS['sprout-mention'].batch}2 events]`, 'sprout-mention'],
      [`${HEADERS['sprout-event'].single}approvals]`, 'sprout-event'],
      [`${HEADERS['sprout-event'].batch}2 events]`, 'sprout-event'],
      [`${HEADERS['buzz-event'].single}@mention]`, 'buzz-event'],
      [`${HEADERS['buzz-event'].batch}2 events]`, 'buzz-event'],
      ...Object.keys(HEADERS['bracket-merge'].single).map((line): [string, HeaderFamily] => [line, 'bracket-merge']),
      ...HEADERS['bracket-merge'].batch.map((prefix): [string, HeaderFamily] => [
        `${prefix}2 events]`,
        'bracket-merge',
      ]),
      [`<${HEADERS.xml.single} type="@mention">`, 'xml'],
      [`<${HEADERS.xml.batch} count="2">`, 'xml'],
      ...Object.keys(HEADERS.xml.merges).map((name): [string, HeaderFamily] => [`<${name}>`, 'xml']),
    ];
    expect(lines.map(([line]) => [line, sectionHeader(line)?.family])).toEqual(lines);
    expect(lines).toHaveLength(19);
    const roles = (singles: Readonly<Record<string, string>>, wrap: (key: string) => string) =>
      Object.entries(singles).map(([key, role]) => [key, sectionHeader(wrap(key))?.role, role]);
    for (const [key, seen, role] of [
      ...roles(HEADERS['bracket-merge'].single, (line) => line),
      ...roles(HEADERS.xml.merges, (name) => `<${name}>`),
    ]) {
      expect([key, seen]).toEqual([key, role]);
    }
    expect(sectionHeader(`<${HEADERS.xml.restart}>`)?.restart).toBe(true);
  });

  test('every header family introduces at least one era', () => {
    const families: HeaderFamily[] = ['sprout-mention', 'sprout-event', 'bracket-merge', 'buzz-event', 'xml'];
    expect(families.filter((family) => !ERAS.some((row) => row.headers.includes(family)))).toEqual([]);
  });

  // The first field line decides only for a family that spans eras of different layouts. Which
  // layout a section was read with shows in the first line the block lacks: a rich block starts
  // with `Event ID:`, a message block has `From:` after the channel, a content block `Kind:`.
  const lacking: Record<BlockLayout, string> = {
    rich: 'an event block has no valid Event ID line',
    message: 'an event block has no From line',
    content: 'an event block has no valid Kind line',
  };
  const header: Record<HeaderFamily, string> = {
    'sprout-mention': HEADERS['sprout-mention'].single,
    'sprout-event': `${HEADERS['sprout-event'].single}x]`,
    'bracket-merge': '[What you were working on]\n\n--- Event 1 (x) ---',
    'buzz-event': `${HEADERS['buzz-event'].single}x]`,
    xml: `<${HEADERS.xml.single} type="x">`,
  };
  const layouts: Record<HeaderFamily, Readonly<Record<string, BlockLayout | 'channel'>>> = {
    'sprout-mention': { [`Channel: ${CHANNEL}`]: 'message', 'Event ID: x': 'channel' },
    'sprout-event': { [`Channel: ${CHANNEL}`]: 'content', 'Event ID: x': 'rich', 'Kind: 9': 'channel' },
    'bracket-merge': { [`Channel: ${CHANNEL}`]: 'rich', 'Event ID: x': 'rich' },
    'buzz-event': { [`Channel: ${CHANNEL}`]: 'rich' },
    xml: { [`Channel: ${CHANNEL}`]: 'rich' },
  };
  /** What scraping a section of `family` whose first field line is `line` reports. */
  const problemOf = (family: HeaderFamily, line: string | undefined): string => {
    const close = family === 'xml' ? `\n</${HEADERS.xml.single}>` : '';
    const text = line === undefined ? header[family] : `${header[family]}\n${line}${close}`;
    const read = scrapePromptText([{ type: 'text', text }]);
    return read.ok ? 'ok' : read.error.message.replace('/prompt/0/text: ', '');
  };
  test.each(Object.entries(layouts) as [HeaderFamily, Record<string, BlockLayout | 'channel'>][])(
    '%s picks its layout by the first field line',
    (family, byLine) => {
      for (const [line, layout] of Object.entries(byLine)) {
        // `channel`: a message or content block whose first line is not its `Channel:` line.
        const expected = layout === 'channel' ? 'an event block has no valid Channel line' : lacking[layout];
        expect([line, problemOf(family, line)]).toEqual([line, expected]);
      }
    },
  );

  test('past the end of the text a Sprout event section reads the content layout', () => {
    expect(problemOf('sprout-event', undefined)).toBe('an event block has no valid Channel line');
  });
});
