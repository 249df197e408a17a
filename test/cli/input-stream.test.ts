/**
 * How the command reads its input: as a stream with a bound. A file or a pipe larger than the
 * bound fails with exit 2 and one line, after reading at most one chunk past it (bounded memory,
 * measured as the child's peak RSS), and `/dev/zero` is no exception; a slow producer on stdin is
 * waited for (a synchronous read of the pipe failed with EAGAIN). The real executable, so what a
 * shell sees.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { readBounded } from '../../src/cli/read-input.js';
import { AGENT } from '../support/keys.js';
import { runCli } from './run.js';

/** The built command (`npm run build` first): start-up as a user's, and stdin as node sets it up for it. */
const bin = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
/** Preloaded into the command: at exit, its peak resident set size in KiB on fd 3 (a pipe the test reads). */
const reportMaxRss =
  'data:text/javascript,import{writeSync}from"node:fs";' +
  'process.on("exit",()=>writeSync(3,String(process.resourceUsage().maxRSS)))';
const CAPTURE = fileURLToPath(new URL('../fixtures/acp-capture.ndjson', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'buzz-meta-input-'));

/** The most input the command reads: 256 MiB (its one-line error names the figure). */
const MAX_INPUT_BYTES = 256 * 1024 * 1024;
/** Node and the held chunks besides the bound itself: far below what an unbounded read reaches. */
const MAX_RSS_KIB = (MAX_INPUT_BYTES + 384 * 1024 * 1024) / 1024;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Peak RSS of the command, KiB. */
  readonly maxRssKib: number;
}

/** Runs `sh -c script` with `$BUZZ_META` replaced by the command (which reports its peak RSS on fd 3). */
async function shell(script: string): Promise<Run> {
  // Killed after 40 s: a read without a bound would otherwise go on past the test's end.
  const command = `timeout 40 "${process.execPath}" --import '${reportMaxRss}' "${bin}"`;
  const child = spawn('sh', ['-c', script.replaceAll('$BUZZ_META', command)], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const text = (stream: NodeJS.ReadableStream | null): Promise<string> =>
    new Promise((resolve) => {
      let out = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => (out += chunk));
      stream?.on('end', () => {
        resolve(out);
      });
    });
  const [stdout, stderr, rss, code] = await Promise.all([
    text(child.stdout),
    text(child.stderr),
    text(child.stdio[3] as NodeJS.ReadableStream),
    new Promise<number | null>((resolve) => child.on('close', resolve)),
  ]);
  return { code, stdout, stderr, maxRssKib: Number(rss) };
}

const tooLarge = (name: string) =>
  `buzz-meta: ${name}: more than ${String(MAX_INPUT_BYTES)} bytes, the most the command reads (split the input)\n`;

describe('the input bound', () => {
  test('inspect /dev/zero: exit 2, one line, in bounded memory', { timeout: 60_000 }, async () => {
    const run = await shell('$BUZZ_META inspect /dev/zero');
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: tooLarge('/dev/zero'),
    });
    expect(run.maxRssKib).toBeGreaterThan(0);
    expect(run.maxRssKib).toBeLessThan(MAX_RSS_KIB);
  });

  test('a regular file larger than the bound: refused before it is read', { timeout: 60_000 }, async () => {
    const file = join(dir, 'sparse.bin');
    writeFileSync(file, '');
    truncateSync(file, MAX_INPUT_BYTES + 1);
    const run = await shell(`$BUZZ_META inspect "${file}"`);
    expect([run.code, run.stdout, run.stderr]).toEqual([2, '', tooLarge(file)]);
    expect(run.maxRssKib).toBeLessThan(MAX_INPUT_BYTES / 1024 / 2);
  });

  test('a pipe larger than the bound: exit 2, one line, in bounded memory', { timeout: 60_000 }, async () => {
    const run = await shell(`head -c ${String(MAX_INPUT_BYTES + 1)} /dev/zero | $BUZZ_META inspect -`);
    expect([run.code, run.stdout, run.stderr]).toEqual([2, '', tooLarge('stdin')]);
    expect(run.maxRssKib).toBeLessThan(MAX_RSS_KIB);
  });

  test('readBounded: the bound exactly, one byte more, and a source it stops reading', async () => {
    const chunks = (...sizes: number[]) => Readable.from(sizes.map((size) => Buffer.alloc(size, 0x20)));
    expect((await readBounded(chunks(3, 4, 3), 'x', 10)).byteLength).toBe(10);
    await expect(readBounded(chunks(3, 4, 4), 'x', 10)).rejects.toThrow(
      'x: more than 10 bytes, the most the command reads (split the input)',
    );
    let produced = 0;
    async function* endless(): AsyncGenerator<Uint8Array> {
      for (;;) {
        produced++;
        yield await Promise.resolve(Buffer.alloc(4));
      }
    }
    await expect(readBounded(endless(), 'endless', 10)).rejects.toThrow('endless: more than 10 bytes');
    expect(produced).toBe(3);
  });

  test('a file that cannot be read: why, in words, the name printable', async () => {
    expect(await runCli(['inspect', dir])).toEqual({
      code: 2,
      stdout: '',
      stderr: `buzz-meta: ${dir} is a directory: give a file\n`,
    });
    expect(await runCli(['inspect', 'a\0b'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'buzz-meta: not a valid file name: a\uFFFDb\n',
    });
    const locked = join(dir, 'locked.ndjson');
    writeFileSync(locked, '{}\n', { mode: 0o000 });
    // root reads any file: there the permission error cannot be produced.
    if (process.getuid?.() !== 0) {
      expect((await runCli(['inspect', locked])).stderr).toBe(`buzz-meta: permission denied: ${locked}\n`);
    }
    expect((await runCli(['inspect', join(CAPTURE, 'x')])).stderr).toBe(
      `buzz-meta: no such file: ${join(CAPTURE, 'x')} (a part of the path is not a directory)\n`,
    );
  });
});

describe('stdin from a slow producer', () => {
  test(
    'nothing until after start-up, then the capture: read whole, as from the file',
    { timeout: 60_000 },
    async () => {
      const expected = await runCli(['inspect', '--json', CAPTURE]);
      const run = await shell(`(sleep 1; cat "${CAPTURE}") | $BUZZ_META inspect --json -`);
      expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
        code: 0,
        stdout: expected.stdout,
        stderr: '',
      });
    },
  );

  test('half the capture, a pause, the rest: read whole', { timeout: 60_000 }, async () => {
    const half = Math.floor(readFileSync(CAPTURE).length / 2);
    const expected = await runCli(['verify', '--agent-pubkey', AGENT.npub, CAPTURE]);
    const run = await shell(
      `(head -c ${String(half)} "${CAPTURE}"; sleep 1; tail -c +${String(half + 1)} "${CAPTURE}") | $BUZZ_META verify --agent-pubkey ${AGENT.npub} -`,
    );
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
      code: 1,
      stdout: expected.stdout,
      stderr: '',
    });
  });
});
