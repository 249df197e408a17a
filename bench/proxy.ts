/**
 * `buzz-meta proxy` benchmarks, run at the end of `npm run bench` (or alone: `BENCH_ONLY=proxy`).
 * Uses the built command (`npm run build` first; it builds when dist/ is missing). The agent is
 * examples/proxy/node-agent.mjs (plain Node, no SDK), run twice: once directly, once behind the
 * proxy (`--agent-pubkey`, so envelopes verify, with the wasm backend the reader picks by default).
 * The host is a raw NDJSON client in this process, so neither side pays for an SDK.
 *
 * 1. Latency added per prompt: one prompt in flight, each a distinct verified 1-event envelope
 *    (no verdict comes from the signature cache), alternating direct and proxied prompt by prompt
 *    so load changes hit both alike; p50 and p99 of the round trips, and the difference of the
 *    medians. Goal: ≤ 1 ms added at p50.
 * 2. Throughput: small asserted prompts (a 1-event draft), `BENCH_PROXY_WINDOW` (default 64) in
 *    flight, as prompts per second through the proxy and directly. Goal: ≥ 10,000 prompts/s.
 *    The same for 1-event drafts (no signature): what the relay and a read cost alone.
 * 3. Memory at rest: the proxy process's resident set (VmRSS) after start-up and one prompt, after
 *    the runs above, and after as many prompts again.
 * Nothing is asserted; the verdict lines say PASS or FAIL.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBuzzEnvelope, generateSecretKey, getPublicKey, signEvent } from '../src/host.js';
import { toNpub } from '../src/npub.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const AGENT = path.join(root, 'examples/proxy/node-agent.mjs');
const LATENCY_TARGET_MS = 1;
const THROUGHPUT_TARGET = 10_000;
const CHANNEL_ID = '6f1c2b3a-9d4e-4f5a-8b6c-7d8e9f0a1b2c';

/** A raw NDJSON client of one child process: sends requests, resolves each on its response. */
class RawHost {
  readonly child: ChildProcessWithoutNullStreams;
  readonly #pending = new Map<number, () => void>();
  #nextId = 1;
  #rest = '';

  constructor(command: string, args: readonly string[]) {
    this.child = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.resume();
    this.child.stdout.setEncoding('utf8').on('data', (text: string) => {
      const lines = (this.#rest + text).split('\n');
      this.#rest = lines.pop() ?? '';
      for (const line of lines) {
        // Responses carry `"id":<n>` and no method; updates are skipped without a parse.
        if (line.includes('"method"')) continue;
        const id = (JSON.parse(line) as { id: number }).id;
        this.#pending.get(id)?.();
        this.#pending.delete(id);
      }
    });
  }

  /** Sends `method` with `params`, resolves when it is answered. */
  request(method: string, params: unknown): Promise<void> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  /** Sends an already serialized `params` text (built before timing). */
  requestText(method: string, paramsText: string): Promise<void> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.child.stdin.write(`{"jsonrpc":"2.0","id":${String(id)},"method":"${method}","params":${paramsText}}\n`);
    });
  }

  async start(): Promise<void> {
    await this.request('initialize', { protocolVersion: 1 });
    await this.request('session/new', { cwd: '/', mcpServers: [] });
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }

  /** Resident set of `pid` in MiB (Linux /proc). */
  static rssMiB(pid: number | undefined): number {
    const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
  }
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** `count` distinct verified 1-event prompts, as params text, and the agent key that verifies them. */
function envelopePrompts(count: number): { texts: string[]; npub: string } {
  const agentKey = generateSecretKey();
  const ownerKey = generateSecretKey();
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const event = signEvent(
      { kind: 9, created_at: 1_785_840_000 + i, tags: [['h', CHANNEL_ID]], content: `message ${String(i)}` },
      ownerKey,
    );
    const buzz = buildBuzzEnvelope({
      agentSecretKey: agentKey,
      channelId: CHANNEL_ID,
      ownerPubkey: getPublicKey(ownerKey),
      events: [event],
    });
    texts.push(JSON.stringify({ sessionId: 'node-session', prompt: [{ type: 'text', text: 'hi' }], _meta: { buzz } }));
  }
  return { texts, npub: toNpub(getPublicKey(agentKey)) };
}

/** Small asserted prompts: a 1-event draft each (distinct event ids). */
function draftPrompt(i: number): string {
  const buzz = {
    channelId: CHANNEL_ID,
    channelType: 'channel',
    events: [{ id: i.toString(16).padStart(64, '0'), sender: 'b'.repeat(64), kind: 9, createdAt: 1_785_840_000 }],
  };
  return JSON.stringify({ sessionId: 'node-session', prompt: [{ type: 'text', text: 'hi' }], _meta: { buzz } });
}

/** Prompts per second through `host` with `window` in flight. */
async function throughput(host: RawHost, texts: readonly string[], window: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  const lane = async (): Promise<void> => {
    while (next < texts.length) await host.requestText('session/prompt', texts[next++] ?? '');
  };
  await Promise.all(Array.from({ length: window }, lane));
  return texts.length / ((performance.now() - started) / 1000);
}

const fmt = (ms: number): string => `${ms.toFixed(3)} ms`;
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Runs the benchmarks and prints their figures and verdicts. */
export async function runProxyBench(): Promise<void> {
  console.log('');
  console.log(`buzz-meta proxy (bench/proxy.ts); load average ${load()}`);
  if (!existsSync(path.join(root, 'dist/cli/bin.js'))) {
    spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  }

  const count = Number(process.env.BENCH_PROXY_PROMPTS ?? 2000);
  const { texts, npub } = envelopePrompts(count);
  const direct = new RawHost(process.execPath, [AGENT]);
  const proxied = new RawHost(process.execPath, [
    path.join(root, 'dist/cli/bin.js'),
    'proxy',
    '--agent-pubkey',
    npub,
    '--log-level',
    'quiet',
    '--',
    process.execPath,
    AGENT,
  ]);
  try {
    await Promise.all([direct.start(), proxied.start()]);
    await proxied.requestText('session/prompt', draftPrompt(0));
    const restRss = RawHost.rssMiB(proxied.child.pid);

    // 1. latency, one in flight, alternating; the first tenth is warm-up.
    const directMs: number[] = [];
    const proxiedMs: number[] = [];
    const sides = [
      [direct, directMs],
      [proxied, proxiedMs],
    ] as const;
    for (let i = 0; i < count; i++) {
      const text = texts[i] ?? '';
      for (const [host, into] of i % 2 === 0 ? sides : [...sides].reverse()) {
        const started = performance.now();
        await host.requestText('session/prompt', text);
        if (i >= count / 10) into.push(performance.now() - started);
      }
    }
    // The same with a small asserted draft: what the relay and a read cost without signatures.
    const draftDirect: number[] = [];
    const draftProxied: number[] = [];
    const draftSides = [
      [direct, draftDirect],
      [proxied, draftProxied],
    ] as const;
    for (let i = 0; i < count; i++) {
      const text = draftPrompt(1_000_000 + i);
      for (const [host, into] of i % 2 === 0 ? draftSides : [...draftSides].reverse()) {
        const started = performance.now();
        await host.requestText('session/prompt', text);
        if (i >= count / 10) into.push(performance.now() - started);
      }
    }
    const added = quantile(proxiedMs, 0.5) - quantile(directMs, 0.5);
    console.log(
      `latency per prompt, verified 1-event envelope (${String(proxiedMs.length)} each, alternating):   p50        p99`,
    );
    console.log(
      `  agent alone                                   ${fmt(quantile(directMs, 0.5))}  ${fmt(quantile(directMs, 0.99))}`,
    );
    console.log(
      `  behind buzz-meta proxy                        ${fmt(quantile(proxiedMs, 0.5))}  ${fmt(quantile(proxiedMs, 0.99))}`,
    );
    console.log(
      `  added by the proxy (difference of the quantiles) ${fmt(added)}  ${fmt(quantile(proxiedMs, 0.99) - quantile(directMs, 0.99))}`,
    );
    console.log(`latency per prompt, asserted 1-event draft (no signature to check):`);
    console.log(
      `  agent alone                                   ${fmt(quantile(draftDirect, 0.5))}  ${fmt(quantile(draftDirect, 0.99))}`,
    );
    console.log(
      `  behind buzz-meta proxy                        ${fmt(quantile(draftProxied, 0.5))}  ${fmt(quantile(draftProxied, 0.99))}`,
    );

    // 2. throughput of small asserted prompts.
    const window = Number(process.env.BENCH_PROXY_WINDOW ?? 64);
    const small = Array.from({ length: Number(process.env.BENCH_PROXY_SMALL ?? 20_000) }, (_, i) => draftPrompt(i + 1));
    await throughput(proxied, small.slice(0, 2000), window);
    const proxiedRate = await throughput(proxied, small, window);
    const directRate = await throughput(direct, small, window);
    console.log(`throughput, ${String(small.length)} asserted 1-event drafts, ${String(window)} in flight:`);
    console.log(`  behind buzz-meta proxy   ${Math.round(proxiedRate).toLocaleString('en-US')} prompts/s`);
    console.log(`  agent alone              ${Math.round(directRate).toLocaleString('en-US')} prompts/s`);

    // 3. memory: at rest, after the runs, and after as many prompts again (a leak would keep growing).
    const afterRuns = RawHost.rssMiB(proxied.child.pid);
    await throughput(proxied, small, window);
    console.log(
      `proxy resident set: ${restRss.toFixed(1)} MiB at rest (started, one prompt), ${afterRuns.toFixed(1)} MiB after the runs, ` +
        `${RawHost.rssMiB(proxied.child.pid).toFixed(1)} MiB after ${String(small.length)} prompts more`,
    );
    console.log(`load average after the proxy runs: ${load()}`);
    console.log('');
    console.log(
      `${added <= LATENCY_TARGET_MS ? 'PASS' : 'FAIL'}  latency the proxy adds at p50, verified 1-event envelope: ${fmt(added)}, target ≤ ${String(LATENCY_TARGET_MS)} ms`,
    );
    console.log(
      `${proxiedRate >= THROUGHPUT_TARGET ? 'PASS' : 'FAIL'}  small asserted prompts through the proxy: ${Math.round(proxiedRate).toLocaleString('en-US')}/s, target ≥ ${THROUGHPUT_TARGET.toLocaleString('en-US')}`,
    );
  } finally {
    await Promise.all([direct.stop(), proxied.stop()]);
  }
}
