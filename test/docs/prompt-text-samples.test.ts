/**
 * Every literal prompt-text sample in the README and the user guides scrapes, as what it shows: a
 * sample is the ```text block after a `<!-- prompt-text-sample: <era> -->` line, its text blocks
 * split at lines holding only `⏎`. Each reads with the channel, event ids and senders its own
 * lines render, so a doc sample cannot rot; a prompt-text block without the marker fails too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { scrapePromptText, toHexPubkey } from '../../src/index.js';

const root = new URL('../../', import.meta.url);
const pages = ['README.md', ...readdirSync(new URL('docs/', root)).filter((name) => name.endsWith('.md'))].map(
  (name) => (name === 'README.md' ? name : `docs/${name}`),
);

interface Sample {
  readonly page: string;
  readonly era: string;
  readonly text: string;
}

/** Every ```text block of a page, with the sample marker before it if there is one. */
function textBlocks(page: string): { readonly era: string | undefined; readonly text: string }[] {
  const markdown = readFileSync(new URL(page, root), 'utf8');
  return [...markdown.matchAll(/(?:<!-- prompt-text-sample: ([^>]+?) -->\n\n)?```text\n([\s\S]*?)\n```\n/g)].map(
    (match) => ({ era: match[1], text: match[2] ?? '' }),
  );
}

const samples: Sample[] = pages.flatMap((page) =>
  textBlocks(page).flatMap(({ era, text }) => (era === undefined ? [] : [{ page, era, text }])),
);

/** What the sample's own lines say: the channel of its event blocks, each block's id and sender. */
function rendered(text: string): { channelId: string | undefined; ids: (string | null)[]; senders: string[] } {
  const lines = text.split('\n');
  const blocks = lines.flatMap((line, at) => (line.startsWith('From: ') ? [at] : []));
  const ids = blocks.map((at) => {
    const idLine = lines.slice(Math.max(0, at - 3), at).find((line) => line.startsWith('Event ID: '));
    return idLine === undefined ? null : idLine.slice('Event ID: '.length);
  });
  const senders = blocks.map((at) => {
    const from = lines[at] ?? '';
    const hex = /hex: ([0-9a-f]{64})\)$/.exec(from);
    return hex?.[1] ?? toHexPubkey(from.slice('From: '.length));
  });
  const channel = lines
    .filter((line) => line.startsWith('Channel: '))
    .map((line) => /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\)?$/.exec(line)?.[1]);
  return { channelId: channel[0], ids, senders };
}

describe('prompt-text samples in the docs', () => {
  test('one sample per era at least, V1 to V5', () => {
    const eras = new Set(samples.map((sample) => sample.era.split(' ')[0]));
    expect([...eras].sort()).toEqual(['V1', 'V2', 'V3', 'V4', 'V5']);
  });

  test('every ```text block that looks like prompt text is a marked sample', () => {
    const looksLikePrompt = /^(?:\[(?:Sprout|Buzz|Context\]|What you)|<(?:buzz-|context>|what-you|new-))/;
    const unmarked = pages.flatMap((page) =>
      textBlocks(page)
        .filter(({ era, text }) => era === undefined && looksLikePrompt.test(text))
        .map(({ text }) => `${page}: ${text.split('\n')[0] ?? ''}`),
    );
    expect(unmarked).toEqual([]);
  });

  test.each(samples)('$page, $era: scrapes with the ids and senders it renders', ({ text }) => {
    const read = scrapePromptText(text.split('\n⏎\n').map((block) => ({ type: 'text', text: block })));
    if (!read.ok) throw read.error;
    const expected = rendered(text);
    const events = [...read.context.cancelledEvents, ...read.context.events];
    expect({
      channelId: read.context.channelId,
      ids: events.map((event) => event.id),
      senders: events.map((event) => event.sender),
    }).toEqual(expected);
    expect(events.length).toBeGreaterThan(0);
  });
});
