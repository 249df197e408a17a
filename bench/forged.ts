/**
 * Forged deliveries: what a sender without the agent key can make a reader spend, next
 * to the `JSON.parse` of the request text (which the ACP SDK has already paid when the handler
 * runs). Four shapes at 1, 10 and 100 MB, each forged two ways (the genuine attestation left stale,
 * or payloadHash recomputed with a stranger's signature: the worst case) and read keyless, keyed
 * (`readBuzzContext`, pure-JS Schnorr) and keyed by a `createBuzzReader` on the wasm backend; and a
 * normal verified delivery for scale. Run by `npm run bench` (or
 * `BENCH_ONLY=forged npm run bench`); figures go to docs/performance.md.
 *
 * Judged on CPU time (`process.cpuUsage`, all threads): single operations of milliseconds to
 * seconds on a shared 2-core machine, where the wall clock mostly measures the neighbours. The
 * goal is a read at most 2× the parse (`≤ 2×` column).
 *
 * The floor column is what no reader of that text can avoid: SHA-256 of its bytes (Node's native
 * hash; the attestation digest covers every byte of the envelope) and, for a keyed read, one BIP-340
 * verification (printed once, above the table). A read at its floor is as cheap as a verifier of this
 * contract can be; the ratio to the parse then says how far the goal is from the hardware.
 */
import { createHash } from 'node:crypto';
import { schnorr } from '@noble/curves/secp256k1.js';
import { readBuzzContext } from '../src/read/read.js';
import { loadLibsecp256k1 } from '../src/envelope/libsecp256k1.js';
import { createBuzzReader } from '../src/read/reader.js';
import { recomputeUnkeyed } from '../test/envelope/mutations.js';
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

/** `yes` when every read costs at most 2× the parse. */
function meets(parse: number, ...reads: number[]): string {
  return reads.every((read) => read <= 2 * parse) ? 'yes' : 'no';
}

/** A valid BIP-340 signature over a 32-byte message, made once. */
function signedSample(): { signature: Uint8Array; message: Uint8Array; pubkey: Uint8Array } {
  const secret = new Uint8Array(32).fill(7);
  const message = new Uint8Array(32).fill(1);
  return { signature: schnorr.sign(message, secret), message, pubkey: schnorr.getPublicKey(secret) };
}

/** CPU time of one bare pure-JS verification (what `readBuzzContext` pays for the attestation). */
function bareSchnorr(): number {
  const { signature, message, pubkey } = signedSample();
  return timed(50, () => schnorr.verify(signature, message, pubkey));
}

/** How the forged attestation is made: both are what a sender without the agent key can send. */
const FORGERIES = {
  // The attestation of the genuine envelope, left as it was: payloadHash no longer matches.
  stale: (): void => undefined,
  // Every unkeyed hash recomputed over the padded envelope (event ids, membershipRevision,
  // deliveryId, payloadHash: anyone can), signature not the agent's. The worst case for a keyed
  // read: hashed in full, then one Schnorr verification. Read without a key it is a genuine
  // `asserted` delivery (nothing is forged where no key is pinned), at the cost of any delivery.
  recomputed: (envelope: Record<string, unknown>): void => {
    try {
      recomputeUnkeyed(envelope);
      // The reply anchor names the last event, whose id the padding changed; then the hashes again.
      const events = envelope.events as { id: string }[];
      (envelope.reply as Record<string, unknown>).replyToEventId = events[events.length - 1]?.id;
      recomputeUnkeyed(envelope);
    } catch {
      // Past the default limits nothing is hashed (the read is refused first): any hash will do.
    }
  },
} as const;

/** Prints the forged-delivery table. */
export async function runForgedBench(): Promise<void> {
  const pinned = { agentPubkey: AGENT.pubkey };
  const wasmReader = await createBuzzReader({ agentPubkey: AGENT.pubkey, backend: 'wasm' });
  const rows: string[][] = [];
  const schnorrMs = bareSchnorr();
  const wasmVerify = await loadLibsecp256k1();
  const sample = signedSample();
  const wasmSchnorrMs = timed(200, () => wasmVerify(sample.signature, sample.message, sample.pubkey));
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
    '—',
    '—',
    '',
    (normalRead / normalParse).toFixed(0) + '× (3 Schnorr verifications)',
    'verified',
  ]);
  for (const [name, shape] of Object.entries(SHAPES)) {
    for (const size of [1, 10, 100]) {
      for (const [forgery, forge] of Object.entries(FORGERIES)) {
        const envelope = jsonCopy(sampleEnvelope()) as unknown as Record<string, unknown>;
        shape(envelope, size * MB);
        // Forged: a stranger's attestation is as good as none without the agent's key.
        (envelope.attestation as Record<string, unknown>).signature = 'ab'.repeat(64);
        forge(envelope);
        const text = JSON.stringify(promptParams(envelope));
        const runs = size === 100 ? 3 : size === 10 ? 7 : 11;
        const params = JSON.parse(text) as unknown;
        const parse = timed(runs, () => JSON.parse(text));
        const outcomes: string[] = [];
        const read = (reading: () => ReturnType<typeof readBuzzContext>): number => {
          let outcome = '';
          const time = timed(runs, () => {
            const result = reading();
            outcome = result.ok ? result.context.trust : result.error.code;
          });
          outcomes.push(outcome);
          return time;
        };
        const keyless = read(() => readBuzzContext(params));
        const keyed = read(() => readBuzzContext(params, pinned));
        const wasm = read(() => wasmReader.read(params));
        const bytes = Buffer.from(text);
        const floor = timed(runs, () => createHash('sha256').update(bytes).digest());
        rows.push([
          `${name}, ${String(size)} MB, payloadHash ${forgery}`,
          (text.length / MB).toFixed(1) + ' MiB',
          ms(parse),
          `${ms(keyless)} (${(keyless / parse).toFixed(2)}×)`,
          `${ms(keyed)} (${(keyed / parse).toFixed(2)}×)`,
          `${ms(wasm)} (${(wasm / parse).toFixed(2)}×)`,
          `${ms(floor)} (${(floor / parse).toFixed(2)}×)`,
          // A keyless read of a self-consistent envelope is an ordinary asserted read, not a forgery.
          forgery === 'stale' ? meets(parse, keyless, keyed, wasm) : meets(parse, keyed, wasm),
          '',
          outcomes.join(' / '),
        ]);
      }
    }
  }
  const header = [
    'delivery',
    'text',
    'JSON.parse ms',
    'keyless read ms (÷ parse)',
    'keyed read ms (÷ parse)',
    'keyed, wasm reader ms (÷ parse)',
    'floor: SHA-256 of the text ms (÷ parse)',
    '≤ 2×',
    'note',
    'outcome (keyless / keyed / wasm)',
  ];
  const widths = header.map((h, col) => Math.max(h.length, ...rows.map((row) => (row[col] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    '| ' + cells.map((cell, col) => cell.padEnd(widths[col] ?? 0)).join(' | ') + ' |';
  console.log('');
  console.log(
    'forged deliveries (CPU time, median of 11 runs at 1 MB, 7 at 10 MB, 3 at 100 MB; no forged read gets past the attestation)',
  );
  console.log(
    `floor of a keyed read: that SHA-256 plus one BIP-340 verification, ${schnorrMs.toFixed(2)} ms in pure JS (@noble/curves), ${wasmSchnorrMs.toFixed(2)} ms in libsecp256k1 (wasm)`,
  );
  console.log(line(header));
  console.log('| ' + widths.map((w) => '-'.repeat(w)).join(' | ') + ' |');
  for (const row of rows) console.log(line(row));
}
