/**
 * `buzz-meta/acp` and command benchmarks, run at the end of `npm run bench` (or alone:
 * `BENCH_ONLY=acp`). Uses the built package (`npm run build` first; it builds when dist/ is missing).
 *
 * 1. Cold import: fresh node processes, alternating, each timing its own dynamic imports with
 *    `performance.now()` (node start-up excluded): `@agentclientprotocol/sdk` alone, vs the SDK
 *    plus `buzz-meta` plus `buzz-meta/acp`. Target: the medians differ by at most 15 ms.
 * 2. `buzz-meta inspect --json` on a 10 000-prompt NDJSON capture (no key, so no signature is
 *    verified): whole process wall time (`node dist/cli/bin.js`, output to a pipe), and the command
 *    in process (`main()` with a discarding output), as prompts per second. Target ≥ 20 000/s.
 * Both also report CPU time (user + system), which a loaded, shared machine inflates less than wall time.
 * `BENCH_INSPECT_BASELINE=<path of another build's dist/cli/bin.js>` runs that build alternately with this one
 * (`BENCH_INSPECT_ROUNDS` runs each, default 5) and prints the ratios.
 * Nothing is asserted; the verdict lines say PASS or FAIL.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSecretKey, getPublicKey, signEvent, withBuzzEnvelope } from '../src/host.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const IMPORT_TARGET_MS = 15;
const INSPECT_TARGET = 20_000;

const ms = (value: number): string => `${value.toFixed(1).padStart(7)} ms`;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * Milliseconds one fresh process spends importing `specifiers`, in order: wall time (the goal's
 * measure) and CPU time of the process (user + system, all threads), which a loaded machine
 * inflates less.
 */
function importMs(specifiers: readonly string[]): { wall: number; cpu: number } {
  const script =
    'const c0 = process.cpuUsage(); const t0 = performance.now();' +
    specifiers.map((s) => `await import(${JSON.stringify(s)});`).join('') +
    'const wall = performance.now() - t0; const c = process.cpuUsage(c0);' +
    'process.stdout.write(JSON.stringify({ wall, cpu: (c.user + c.system) / 1000 }));';
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  return JSON.parse(out) as { wall: number; cpu: number };
}

/** Prints the CPU time (user + system) of the process when it exits, on stderr (`--import` it). */
const REPORT_CPU =
  'data:text/javascript,' +
  encodeURIComponent(
    'process.on("exit", () => { const c = process.cpuUsage(); process.stderr.write(`\\ncpu-ms ${(c.user + c.system) / 1000}\\n`); });',
  );

/** A capture of `count` prompts: half signed v1 envelopes (1 event), half drafts (4 events), with their responses. */
export function capture(count: number): string {
  const agentKey = generateSecretKey();
  const ownerKey = generateSecretKey();
  const owner = getPublicKey(ownerKey);
  const channelId = '6f1c2b3a-9d4e-4f5a-8b6c-7d8e9f0a1b2c';
  const lines: string[] = [];
  const pool = Array.from({ length: 64 }, (_, i) => {
    const event = signEvent(
      { kind: 9, created_at: 1_785_840_000 + i, tags: [['h', channelId]], content: `message ${String(i)}` },
      ownerKey,
    );
    return withBuzzEnvelope(
      { sessionId: 's', prompt: [{ type: 'text', text: 'hi' }] },
      { agentSecretKey: agentKey, channelId, ownerPubkey: owner, events: [event] },
    );
  });
  for (let i = 0; i < count; i++) {
    const params =
      i % 2 === 0
        ? pool[(i >> 1) % pool.length]
        : {
            sessionId: 's',
            prompt: [{ type: 'text', text: 'hi' }],
            _meta: {
              buzz: {
                channelId,
                channelType: 'channel',
                events: Array.from({ length: 4 }, (_, k) => ({
                  id: (i * 4 + k).toString(16).padStart(64, '0'),
                  sender: owner,
                  kind: 9,
                  createdAt: 1_785_840_000 + k,
                })),
              },
            },
          };
    lines.push(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'session/prompt', params }));
    lines.push(JSON.stringify({ jsonrpc: '2.0', id: i, result: { stopReason: 'end_turn' } }));
  }
  return lines.join('\n') + '\n';
}

/** Runs the benchmarks and prints their figures and verdicts. */
export async function runAcpBench(): Promise<void> {
  console.log('');
  console.log('buzz-meta/acp and the buzz-meta command (bench/acp.ts)');
  if (!existsSync(path.join(root, 'dist/acp/index.js')) || !existsSync(path.join(root, 'dist/cli/bin.js'))) {
    spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  }

  const rounds = Number(process.env.BENCH_IMPORT_ROUNDS ?? 21);
  const sdk = '@agentclientprotocol/sdk';
  const all = [sdk, './dist/index.js', './dist/acp/index.js'];
  importMs(all); // warm the file system cache once
  const alone: { wall: number; cpu: number }[] = [];
  const withUs: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate the order so drift in machine load hits both sides alike.
    if (i % 2 === 0) {
      alone.push(importMs([sdk]));
      withUs.push(importMs(all));
    } else {
      withUs.push(importMs(all));
      alone.push(importMs([sdk]));
    }
  }
  const wall = (runs: typeof alone) => median(runs.map((run) => run.wall));
  const cpu = (runs: typeof alone) => median(runs.map((run) => run.cpu));
  const delta = wall(withUs) - wall(alone);
  const cpuDelta = cpu(withUs) - cpu(alone);
  console.log(
    `cold import, ${String(rounds)} fresh processes each (median, node start-up excluded):     wall      cpu`,
  );
  console.log(`  @agentclientprotocol/sdk alone                     ${ms(wall(alone))} ${ms(cpu(alone))}`);
  console.log(`  SDK + buzz-meta + buzz-meta/acp                    ${ms(wall(withUs))} ${ms(cpu(withUs))}`);
  console.log(`  buzz-meta + buzz-meta/acp add (median vs median)   ${ms(delta)} ${ms(cpuDelta)}`);

  const count = Number(process.env.BENCH_INSPECT_PROMPTS ?? 10_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'buzz-meta-bench-'));
  const file = path.join(dir, 'capture.ndjson');
  try {
    const text = capture(count);
    writeFileSync(file, text);
    const runs: number[] = [];
    const cpuRuns: number[] = [];
    // BENCH_INSPECT_BASELINE=<another build's dist/cli/bin.js>: the same runs alternate with it, side by side.
    const baseline = process.env.BENCH_INSPECT_BASELINE;
    const baseRuns: number[] = [];
    const baseCpuRuns: number[] = [];
    const timed = (bin: string, wall: number[], cpuMs: number[]) => {
      const started = performance.now();
      const run = spawnSync(process.execPath, ['--import', REPORT_CPU, bin, 'inspect', '--json', file], {
        cwd: root,
        maxBuffer: 1 << 30,
        encoding: 'utf8',
      });
      wall.push(performance.now() - started);
      if (run.status !== 0) throw new Error(`inspect exited ${String(run.status)}`);
      cpuMs.push(Number(/cpu-ms (\S+)/.exec(run.stderr)?.[1]));
    };
    const rounds = Number(process.env.BENCH_INSPECT_ROUNDS ?? 5);
    for (let i = 0; i < rounds; i++) {
      if (baseline !== undefined && i % 2 === 0) timed(baseline, baseRuns, baseCpuRuns);
      timed('dist/cli/bin.js', runs, cpuRuns);
      if (baseline !== undefined && i % 2 === 1) timed(baseline, baseRuns, baseCpuRuns);
    }
    // dist/ bundles the command into dist/cli/bin.js, which runs on import: time the same code from src.
    const { main } = await import('../src/cli/main.js');
    const io = {
      writeOut: () => undefined,
      writeErr: () => undefined,
      openStdin: () => null,
      env: {},
      relayStdio: () => ({ stdin: process.stdin, stdout: process.stdout, agentStderr: 'inherit' as const }),
    };
    await main(['inspect', '--json', file], io); // warm-up
    const inProcess: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await main(['inspect', '--json', file], io);
      inProcess.push(performance.now() - started);
    }
    const wallRate = count / (median(runs) / 1000);
    const inRate = count / (median(inProcess) / 1000);
    console.log(
      `inspect --json, ${String(count)} prompts (${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB; half 1-event v1 envelopes, half 4-event drafts; no key):`,
    );
    console.log(
      `  whole process (node dist/cli/bin.js), median of ${String(rounds)}  ${median(runs).toFixed(0)} ms  ${Math.round(wallRate).toLocaleString('en-US')} prompts/s`,
    );
    console.log(
      `  whole process, CPU time (user + system)            ${median(cpuRuns).toFixed(0)} ms  ${Math.round(count / (median(cpuRuns) / 1000)).toLocaleString('en-US')} prompts/CPU-s`,
    );
    console.log(
      `  in process (main), median of 5                     ${median(inProcess).toFixed(0)} ms  ${Math.round(inRate).toLocaleString('en-US')} prompts/s`,
    );
    if (baseline !== undefined) {
      console.log(
        `  baseline ${baseline}: wall ${median(baseRuns).toFixed(0)} ms, CPU ${median(baseCpuRuns).toFixed(0)} ms; this build / baseline: wall ${(median(runs) / median(baseRuns)).toFixed(3)}×, CPU ${(median(cpuRuns) / median(baseCpuRuns)).toFixed(3)}×`,
      );
    }
    console.log('');
    console.log(
      `${delta <= IMPORT_TARGET_MS ? 'PASS' : 'FAIL'}  cold import of buzz-meta + buzz-meta/acp adds ${delta.toFixed(1)} ms over the SDK alone, target ≤ ${String(IMPORT_TARGET_MS)} ms`,
    );
    console.log(
      `${wallRate >= INSPECT_TARGET ? 'PASS' : 'FAIL'}  buzz-meta inspect --json, whole process: ${Math.round(wallRate).toLocaleString('en-US')} prompts/s, target ≥ ${INSPECT_TARGET.toLocaleString('en-US')}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
