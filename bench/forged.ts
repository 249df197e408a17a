/**
 * Forged deliveries (issue 7): what a sender without the agent key can make a reader spend, next
 * to the `JSON.parse` of the request text (which the ACP SDK has already paid when the handler
 * runs). Three shapes at 1, 10 and 100 MB, each read keyless and keyed (forged attestation: the
 * read fails), and a normal verified delivery for scale. Run by `npm run bench` (or
 * `BENCH_ONLY=forged npm run bench`); figures go to docs/performance.md.
 *
 * Judged on CPU time (`process.cpuUsage`, all threads): single operations of milliseconds to
 * seconds on a shared 2-core machine, where the wall clock mostly measures the neighbours. The
 * goal is a read at most 2× the parse (`≤ 2×` column).
 */
import { readBuzzContext } from '../src/read.js';
import { AGENT } from '../test/support/keys.js';
import { jsonCopy, promptParams, sampleEnvelope } from '../test/envelope/sample.js';

const MB = 1024 * 1024;

type Shape = (envelope: Record<string, unknown>, bytes: number) => void;

/** Shapes of padding, each filling about `bytes` of JSON text. */
const SHAPES: Readonly<Record<string, Shape>> = {
  // Many events of maximal content (524 288 units each): string-heavy, the common "big" delivery.
  'content-heavy events': (envelope, bytes) => {
    const events = envelope.events as Record<string, unknown>[];
    const template = events[0] ?? {};
    const count = Math.max(1, Math.round(bytes / 524_288));
    envelope.events = Array.from({ length: count }, (_, i) => ({
      ...template,
      content: String(i % 10).repeat(524_288),
    }));
  },
  // The same text in tag values instead (five 104 857-unit tags per event): tags are escaped and
  // hashed for the envelope and again for each event id; only content's escaped text is reused.
  'tag-heavy events': (envelope, bytes) => {
    const events = envelope.events as Record<string, unknown>[];
    const template = events[0] ?? {};
    const count = Math.max(1, Math.round(bytes / 524_288));
    envelope.events = Array.from({ length: count }, (_, i) => ({
      ...template,
      tags: [
        ...(template.tags as string[][]),
        ...Array.from({ length: 5 }, () => ['t', String(i % 10).repeat(104_857)]),
      ],
    }));
  },
  // Extra keys on a member, in random order: sorting and canonicalizing keys is the costly part.
  'extra member keys': (envelope, bytes) => {
    const members = (envelope.channel as { members: Record<string, unknown>[] }).members;
    const member = members[0] ?? {};
    const keys = Array.from(
      { length: Math.round(bytes / 18) },
      (_, i) => `k${((i * 2_654_435_761) % 4_294_967_296).toString(36).padStart(10, '0')}`,
    );
    for (const key of keys) member[key] = 1;
  },
  // A flat array of small values under an unknown key: the most values per byte.
  'many small values': (envelope, bytes) => {
    envelope.future = new Array<number>(Math.round(bytes / 2)).fill(0);
  },
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Median CPU time of `runs` calls, in ms (user + system, every thread of the process). */
function timed(runs: number, run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.cpuUsage();
    run();
    const used = process.cpuUsage(started);
    times.push((used.user + used.system) / 1000);
  }
  return median(times);
}

/** Milliseconds, one decimal below 10. */
function ms(value: number): string {
  return value.toFixed(value < 10 ? 1 : 0);
}

/** `yes` when both reads cost at most 2× the parse. */
function meets(parse: number, ...reads: number[]): string {
  return reads.every((read) => read <= 2 * parse) ? 'yes' : 'no';
}

/** Prints the forged-delivery table. */
export function runForgedBench(): void {
  const pinned = { agentPubkey: AGENT.pubkey };
  const rows: string[][] = [];
  const normal = promptParams(sampleEnvelope());
  const normalText = JSON.stringify(normal);
  const normalParse = timed(200, () => JSON.parse(normalText));
  const normalRead = timed(50, () => readBuzzContext(JSON.parse(normalText) as unknown, pinned));
  rows.push([
    'normal 2-event delivery, verified',
    (normalText.length / 1000).toFixed(1) + ' kB',
    normalParse.toFixed(3),
    '—',
    normalRead.toFixed(2),
    '',
    (normalRead / normalParse).toFixed(0) + '× (2 Schnorr verifications)',
    'verified',
  ]);
  for (const [name, shape] of Object.entries(SHAPES)) {
    for (const size of [1, 10, 100]) {
      const envelope = jsonCopy(sampleEnvelope()) as unknown as Record<string, unknown>;
      shape(envelope, size * MB);
      // Forged: a stranger's attestation is as good as none without the agent's key.
      (envelope.attestation as Record<string, unknown>).signature = 'ab'.repeat(64);
      const text = JSON.stringify(promptParams(envelope));
      const runs = size === 100 ? 3 : size === 10 ? 7 : 11;
      const params = JSON.parse(text) as unknown;
      const parse = timed(runs, () => JSON.parse(text));
      let outcome = '';
      const keyless = timed(runs, () => {
        const read = readBuzzContext(params);
        outcome = read.ok ? read.context.trust : read.error.code;
      });
      let keyedOutcome = '';
      const keyed = timed(runs, () => {
        const read = readBuzzContext(params, pinned);
        keyedOutcome = read.ok ? read.context.trust : read.error.code;
      });
      rows.push([
        `${name}, ${String(size)} MB`,
        (text.length / MB).toFixed(1) + ' MiB',
        ms(parse),
        `${ms(keyless)} (${(keyless / parse).toFixed(2)}×)`,
        `${ms(keyed)} (${(keyed / parse).toFixed(2)}×)`,
        meets(parse, keyless, keyed),
        '',
        `${outcome} / ${keyedOutcome}`,
      ]);
    }
  }
  const header = [
    'delivery',
    'text',
    'JSON.parse ms',
    'keyless read ms (÷ parse)',
    'keyed read ms (÷ parse)',
    '≤ 2×',
    'note',
    'outcome (keyless / keyed)',
  ];
  const widths = header.map((h, col) => Math.max(h.length, ...rows.map((row) => (row[col] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    '| ' + cells.map((cell, col) => cell.padEnd(widths[col] ?? 0)).join(' | ') + ' |';
  console.log('');
  console.log(
    'forged deliveries (CPU time, median of 11 runs at 1 MB, 7 at 10 MB, 3 at 100 MB; no forged read gets past the attestation)',
  );
  console.log(line(header));
  console.log('| ' + widths.map((w) => '-'.repeat(w)).join(' | ') + ' |');
  for (const row of rows) console.log(line(row));
}
