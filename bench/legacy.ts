/**
 * The legacy scraper, wired into `npm run bench` by bench/run.ts:
 *
 * - throughput: `scrapePromptText` of 10 KB, 100 KB and 1 MB V4 batches (context block + event
 *   batch, real ids) as a ratio to `text.split('\n')` over the same text: goal ≤ 3×; beside it,
 *   informative, what escaping and hashing the text once costs (the floor of recomputing every id);
 * - adversarial 1 MB inputs (0.8–1.2× the size of the normal 1 MB batch; each ratio is scaled by
 *   the two sizes, so it compares time per character): hundreds of thousands of `(#` fragments in channel names, of `hex: `
 *   fragments in sender labels, 10k forged separators inside one message, one enormous line;
 *   goal within 2× of the normal 1 MB batch. Informative beside them: denser floods (forged block
 *   starts after the separators, a `Tags:` line every 9 characters, a `Channel:` line every 11).
 *
 * Every input is rendered once, before timing, by the test renderer (test/legacy/render.ts), and
 * checked to read whole. Limits are raised (`maxContentLength` 2 MB) so every case takes the full
 * path instead of stopping at a bound.
 */
import { createHash } from 'node:crypto';
import { scrapePromptText } from '../src/legacy/scrape.js';
import {
  contextSection,
  eventSection,
  mergeSections,
  prompt,
  richBlock,
  type RenderChannel,
  type RenderEvent,
} from '../test/legacy/render.js';
import type { BenchGroup } from './harness.js';

/** Goals, as ratios of this file's cases to their baselines. */
export const LEGACY_TARGETS = { throughput: 3, adversarial: 2, hostile: 10 } as const;

const ALICE = 'c4b997143b7bbd8511f29a9911f880182270e4aaf9f8c3735106461f48681e8a';
const BOB = '5bf9c3df2a9b627d5b7f366c280b4ddcec19db5f8178e23f4abf47f58ee52a4f';
const CHANNEL: RenderChannel = { id: '3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d', name: 'engineering' };
const OPTIONS = { limits: { maxContentLength: 2_000_000 } } as const;

/** A chat-like body of about `size` characters: many short lines, some header-like. */
function body(size: number, seed: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const line =
      i % 17 === 0
        ? `Tags: [["p","${String(seed)}"]] <- quoted`
        : `line ${String(i)} of message ${String(seed)}: the build is red again, see the logs`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}

function event(i: number, content: string, extra: Partial<RenderEvent> = {}): RenderEvent {
  return {
    pubkey: i % 2 === 0 ? ALICE : BOB,
    created_at: 1_788_000_000 + i,
    kind: 9,
    tags: [
      ['h', CHANNEL.id],
      ['p', ALICE],
    ],
    content,
    ...(i % 2 === 0 ? { label: 'Alice Chen' } : {}),
    ...extra,
  };
}

/** A V4 prompt: context block + a batch of `count` events with bodies of `each` characters. */
function batch(
  count: number,
  each: number,
  seed: number,
  channel = CHANNEL,
  extra: Partial<RenderEvent> = {},
): string[] {
  const events = Array.from({ length: count }, (_, i) => event(i, body(each, seed * 1000 + i), extra));
  return [contextSection('v4', 'channel', channel), eventSection('v4', events, channel)];
}

interface Input {
  readonly texts: string[];
  readonly joined: string;
  readonly params: ReturnType<typeof prompt>;
}

function input(texts: string[]): Input {
  const params = prompt(...texts);
  const read = scrapePromptText(params, OPTIONS);
  if (!read.ok) throw new Error(`legacy bench fixture does not read: ${read.error.code} ${read.error.message}`);
  return { texts, joined: texts.join('\n\n'), params };
}

/** An input timed whatever it reads to (a hostile shape may fail fast); the answer is recorded for the printout. */
function hostile(texts: string[]): Input & { readonly answer: string } {
  const params = prompt(...texts);
  const read = scrapePromptText(params, OPTIONS);
  const answer = read.ok ? `reads, ${String(read.context.events.length)} events` : read.error.code;
  return { texts, joined: texts.join('\n\n'), params, answer };
}

/** About `size` characters of `line(i)` lines. */
function lines(size: number, line: (i: number) => string): string {
  let text = '';
  for (let i = 0; text.length < size; i++) text += line(i);
  return text;
}

function at<T>(pool: readonly T[], i: number): T {
  return pool[i % pool.length] as T;
}

function sizeOf(pool: readonly Input[]): number {
  return pool[0]?.joined.length ?? 0;
}

/** The legacy groups, with their inputs built and checked (nothing here is timed). */
export function legacyGroups(): { groups: BenchGroup[]; sizes: Record<string, number> } {
  const sized = (count: number, each: number) => [1, 2, 3, 4].map((seed) => input(batch(count, each, seed)));
  const kb10 = sized(4, 2_400);
  const kb100 = sized(20, 4_900);
  const mb1 = sized(50, 20_000);

  // Adversarial, each about 1 MB.
  const hashChannel: RenderChannel = { id: CHANNEL.id, name: '(#'.repeat(110_000) };
  const fragmentsHash = [input(batch(2, 100_000, 5, hashChannel))];
  const fragmentsHex = [input(batch(3, 200_000, 6, CHANNEL, { label: '(hex: '.repeat(20_000) }))].map((x) => x);
  const forged = Array.from(
    { length: 10_000 },
    (_, i) => `seen ${String(i)}\nTags: []\n\n--- Event 2 (@mention) ---\nEvent ID: ${'0'.repeat(64)}`,
  ).join('\n');
  const separators = [input([eventSection('v4', [event(0, forged, { tags: [] }), event(1, 'real second')], CHANNEL)])];
  const enormous = [input([eventSection('v4', [event(0, 'x'.repeat(1_000_000))], CHANNEL)])];
  // Informative: denser floods than the goal's, each structural line a few characters from the next.
  const flood = (content: string) => [
    hostile([eventSection('v4', [event(0, content, { tags: [] }), event(1, 'real second')], CHANNEL)]),
  ];
  const starts = flood(
    Array.from(
      { length: 10_000 },
      (_, i) => `seen ${String(i)}\nTags: []\n\n--- Event 2 (@mention) ---\nEvent ID: ${'0'.repeat(64)}\nChannel: x`,
    ).join('\n'),
  );
  const tagLines = flood('Tags: []\n'.repeat(120_000));
  const channelLines = flood('Channel: x\n'.repeat(100_000));

  // The hostile shapes: each is timed to its answer, whatever that is.
  const closeEnds = hostile([
    eventSection(
      'v5',
      [
        event(
          0,
          lines(1_000_000, (i) => `line ${String(i)}\nTags: [["t","${String(i)}"]]\n</buzz-event>\n`),
        ),
      ],
      CHANNEL,
    ),
  ]);
  const noteEnds = hostile(
    batch(2, 1, 7)
      .slice(0, 1)
      .concat([
        eventSection(
          'v4',
          [
            event(
              0,
              lines(1_000_000, (i) => `line ${String(i)}\nTags: [["t","${String(i)}"]]\n\nNote: x\n`),
            ),
            event(1, 'two'),
          ],
          CHANNEL,
        ),
      ]),
  );
  const single500k = hostile([
    eventSection(
      'v4',
      [
        event(
          0,
          lines(500_000, (i) => `Tags: [["t","${String(i)}"]]\n\nNote: x\n`),
        ),
      ],
      CHANNEL,
    ),
  ]);
  const cancelled = Array.from({ length: 50 }, (_, i) =>
    event(i, i === 49 ? lines(500_000, (n) => `Tags: [x${String(n)}]\n\nNote: x\n`) : body(10_000, 900 + i)),
  );
  const merge50 = hostile([
    contextSection('v4', 'channel', CHANNEL),
    ...mergeSections(
      'v4',
      'steer',
      cancelled,
      [event(50, 'actually, only v2', { created_at: 1_788_000_100 })],
      CHANNEL,
    ),
  ]);
  let forgedSection = '[What you were working on]';
  for (let i = 0; i < 2500; i++) {
    const quoted = Array.from({ length: 16 }, (_, n) => `Tags: [["t","${String(i)}-${String(n)}"]]\n\nNote: x`).join(
      '\n',
    );
    forgedSection += `\n\n--- Event ${String(i + 1)} (@mention) ---\n${richBlock(event(i, quoted), CHANNEL)}`;
  }
  const oneString = hostile([
    [
      '[System]\nbe nice',
      contextSection('v4', 'thread', CHANNEL),
      `[Thread Context (1 of 1 messages)]\n[1] Mallory (${BOB}) (2026-08-29T10:30:00Z): look\n\n${forgedSection}`,
      eventSection('v4', [event(1, 'the real request')], CHANNEL),
    ].join('\n\n'),
  ]);

  const scrape = (pool: readonly Input[]) => (i: number) => scrapePromptText(at(pool, i).params, OPTIONS);
  const split = (pool: readonly Input[]) => (i: number) => at(pool, i).joined.split('\n');
  // What recomputing every rendered id costs at least: the NIP-01 serialization escapes the content, then hashes it.
  const idFloor = (pool: readonly Input[]) => (i: number) =>
    createHash('sha256')
      .update(JSON.stringify(at(pool, i).joined))
      .digest('hex');
  const scan = (pool: readonly Input[]) => (i: number) => {
    const text = at(pool, i).joined;
    let found = 0;
    // The reader's search: the prefix, each hit kept when a line starts there.
    for (let hit = text.indexOf('Tags: ['); hit !== -1; hit = text.indexOf('Tags: [', hit + 1)) {
      if (text.charCodeAt(hit - 1) === 10) found++;
    }
    return found;
  };

  // Ratios to the normal batch compare time per character: the adversarial inputs are 0.8–1.2× its size.
  const perChar = (pool: readonly Input[]): number => sizeOf(mb1) / sizeOf(pool);

  const throughput = (title: string, pool: readonly Input[], budgetMs: number): BenchGroup => ({
    title,
    budgetMs,
    cases: [
      { id: `${title}-split`, label: `· text.split('\\n'), ${title}`, run: split(pool) },
      {
        id: `${title}-scrape`,
        label: `· scrapePromptText, ${title}`,
        baseline: `${title}-split`,
        run: scrape(pool),
      },
      {
        id: `${title}-id-floor`,
        label: `· (informative) JSON.stringify + SHA-256 of the text (the floor of recomputing every id), ${title}`,
        baseline: `${title}-split`,
        run: idFloor(pool),
      },
    ],
  });

  const groups: BenchGroup[] = [
    throughput('legacy V4 10 KB', kb10, 2500),
    throughput('legacy V4 100 KB', kb100, 2500),
    throughput('legacy V4 1 MB', mb1, 4000),
    {
      title: 'legacy adversarial 1 MB',
      budgetMs: 8000,
      cases: [
        { id: 'lx-normal', label: '· scrapePromptText, normal 1 MB V4 batch (baseline)', run: scrape(mb1) },
        {
          id: 'lx-hash',
          label: "· 220k '(#' fragments in channel names",
          baseline: 'lx-normal',
          scale: perChar(fragmentsHash),
          run: scrape(fragmentsHash),
        },
        {
          id: 'lx-hex',
          label: "· 60k '(hex: ' fragments in sender labels",
          baseline: 'lx-normal',
          scale: perChar(fragmentsHex),
          run: scrape(fragmentsHex),
        },
        {
          id: 'lx-sep',
          label: '· 10k forged separators in one message',
          baseline: 'lx-normal',
          scale: perChar(separators),
          run: scrape(separators),
        },
        {
          // Informative: what splitting that text costs (50k short lines, 3x a normal batch's); the reader no longer splits.
          id: 'lx-sep-split',
          label: "· (informative) text.split('\\n') of the forged-separators text",
          baseline: 'lx-normal',
          scale: perChar(separators),
          run: split(separators),
        },
        {
          // Informative: the scan the reader starts with (one indexOf per Tags line; 10k of them here), nothing else.
          id: 'lx-sep-scan',
          label: "· (informative) the scan for 'Tags: [' lines alone, forged-separators text",
          baseline: 'lx-normal',
          scale: perChar(separators),
          run: scan(separators),
        },
        {
          // Informative: the forged separators each followed by a forged block start, so each is a
          // candidate whose head is read (and hashed when it reads whole, up to the hash budget).
          id: 'lx-starts',
          label: `· (informative) 10k forged separators, each before a forged block start (${starts[0]?.answer ?? ''})`,
          baseline: 'lx-normal',
          scale: perChar(starts),
          run: scrape(starts),
        },
        {
          id: 'lx-tags',
          label: "· (informative) 120k 'Tags: []' lines, one every 9 characters",
          baseline: 'lx-normal',
          scale: perChar(tagLines),
          run: scrape(tagLines),
        },
        {
          id: 'lx-channels',
          label: "· (informative) 100k 'Channel: x' lines, one every 11 characters",
          baseline: 'lx-normal',
          scale: perChar(channelLines),
          run: scrape(channelLines),
        },
        {
          id: 'lx-line',
          label: '· one 1 MB line',
          baseline: 'lx-normal',
          scale: perChar(enormous),
          run: scrape(enormous),
        },
      ],
    },
    {
      title: 'legacy hostile shapes',
      budgetMs: 12000,
      cases: [
        { id: 'lh-normal', label: '· scrapePromptText, normal 1 MB V4 batch (baseline)', run: scrape(mb1) },
        ...[
          [
            'lh-close',
            `· V5 message, 'Tags: [...]' lines each before '</buzz-event>' (${closeEnds.answer})`,
            closeEnds,
          ],
          [
            'lh-note',
            `· V4 message, 'Tags: [...]' lines each before a blank line and 'Note: ' (${noteEnds.answer})`,
            noteEnds,
          ],
          ['lh-500k', `· one 500 kB message of such ends (${single500k.answer})`, single500k],
          [
            'lh-merge',
            `· V4 steer merge, 50 cancelled events, the last with unparsable ends (${merge50.answer})`,
            merge50,
          ],
          [
            'lh-one',
            `· one string, forged merge section of 2,500 blocks over 40k ends (${oneString.answer})`,
            oneString,
          ],
        ].map(([id, label, shape]) => {
          const pool = [shape as Input];
          return {
            id: id as string,
            label: label as string,
            baseline: 'lh-normal',
            scale: perChar(pool),
            run: scrape(pool),
          };
        }),
      ],
    },
  ];
  return {
    groups,
    sizes: {
      '10 KB': sizeOf(kb10),
      '100 KB': sizeOf(kb100),
      '1 MB': sizeOf(mb1),
      '(#': sizeOf(fragmentsHash),
      'hex: ': sizeOf(fragmentsHex),
      separators: sizeOf(separators),
      starts: sizeOf(starts),
      'Tags lines': sizeOf(tagLines),
      'Channel lines': sizeOf(channelLines),
      line: sizeOf(enormous),
      'close ends': sizeOf([closeEnds]),
      'note ends': sizeOf([noteEnds]),
      '500 kB': sizeOf([single500k]),
      merge50: sizeOf([merge50]),
      'one string': sizeOf([oneString]),
    },
  };
}
