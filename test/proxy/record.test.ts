/**
 * `buzz-meta proxy --record FILE`: the host side of a live session, appended as NDJSON, which
 * `buzz-meta inspect` reads back to the same conclusions the proxy drew live: the same context
 * (source, trust, channel, events, keys) for every prompt the agent got, the same refusal
 * (code, path, reason) for every prompt the proxy answered. `--pass-through` records without
 * reading: a host's `_meta.buzzContext` then reaches the agent as sent.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PromptResponse } from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { PromptReport } from '../../src/cli/report.js';
import type { buzzContextJson } from '../../src/proxy/context-json.js';
import { AGENT, OWNER } from '../support/keys.js';
import { CHANNEL_ID, jobEnvelope, jsonCopy, sampleEnvelope } from '../envelope/sample.js';
import { runCli } from '../cli/run.js';
import { startProxied } from './support/proxied.js';

/** `_meta.buzzContext` as the proxy writes it. */
type BuzzContextJson = ReturnType<typeof buzzContextJson>;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'buzz-meta-proxy-record-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The conclusions of one prompt, from a live answer or from an inspect report. */
type Conclusion =
  | { readonly refused: { readonly code: string; readonly path: string; readonly reason: string } }
  | { readonly context: unknown }
  | { readonly none: true };

/** What `buzz-meta inspect --json --agent-pubkey` reports for each prompt of a recording. */
async function reportsOf(file: string): Promise<PromptReport[]> {
  const run = await runCli(['inspect', file, '--json', '--agent-pubkey', AGENT.npub]);
  expect([run.code, run.stderr]).toEqual([0, '']);
  return run.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as PromptReport);
}

function live(response: PromptResponse): Conclusion {
  const outcome = response._meta?.buzzMeta as { code: string; path: string; reason: string } | undefined;
  if (outcome !== undefined) return { refused: { code: outcome.code, path: outcome.path, reason: outcome.reason } };
  const context = (response._meta?.received as { buzzContext?: BuzzContextJson } | null)?.buzzContext;
  if (context === undefined) return { none: true };
  return {
    context: {
      source: context.source,
      trust: context.trust,
      channel: { id: context.channel.id, type: context.channel.type },
      deliveryId: context.deliveryId,
      events: context.events.map((event) => [event.id, event.sender, event.kind, event.createdAt]),
      keys: context.keys,
    },
  };
}

function inspected(report: PromptReport): Conclusion {
  if (!report.ok) {
    if (report.error.code === 'no_buzz_context') return { none: true };
    return { refused: { code: report.error.code, path: report.error.path, reason: report.error.message } };
  }
  return {
    context: {
      source: report.source,
      trust: report.trust,
      channel: report.channel,
      deliveryId: report.deliveryId,
      events: report.events.map((event) => [event.id, event.sender, event.kind, event.createdAt]),
      keys: {
        channel: report.keys.channel,
        sender: report.keys.sender,
        senders: report.keys.senders,
        thread: report.keys.thread,
      },
    },
  };
}

test('a recording read back by inspect gives the conclusions of the live run', async () => {
  const file = path.join(dir, 'session.ndjson');
  const proxied = await startProxied(['--agent-pubkey', AGENT.npub, '--min-trust', 'asserted', '--record', file]);
  const tampered = jsonCopy(sampleEnvelope()) as { deliveryId: string };
  tampered.deliveryId = 'f'.repeat(64);
  const draft = {
    channelId: CHANNEL_ID,
    channelType: 'dm',
    events: [{ id: 'a'.repeat(64), sender: OWNER.pubkey, kind: 9, createdAt: 1_785_840_000 }],
  };
  const answers = [
    await proxied.prompt('echo', { buzz: jsonCopy(sampleEnvelope()) }),
    await proxied.prompt('echo', { buzz: tampered }),
    await proxied.prompt('echo', { buzz: draft }),
    await proxied.prompt('echo', { buzz: jsonCopy(jobEnvelope()) }),
    await proxied.prompt('echo plain text, no Buzz context'),
  ];
  expect(await proxied.stop()).toBe(0);

  const reports = await reportsOf(file);
  expect(reports.map(inspected)).toEqual(answers.map(live));
  // inspect pairs each prompt with the answer the host got: the proxy's refusal, or the agent's.
  expect(reports.map((report) => [report.answer?.stopReason, report.answer?.outcome, report.answer?.code])).toEqual(
    answers.map((answer) => {
      const outcome = answer._meta?.buzzMeta as { outcome: string; code?: string } | undefined;
      return [answer.stopReason, outcome?.outcome ?? null, outcome?.code ?? null];
    }),
  );
  expect(answers.map((answer) => answer.stopReason)).toEqual([
    'end_turn',
    'refusal',
    'end_turn',
    'end_turn',
    'end_turn',
  ]);
  // The recording holds both directions of the host side: its requests and what it was answered.
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  const methods = lines.map((line) => (JSON.parse(line) as { method?: string }).method ?? 'answer');
  expect(methods.filter((method) => method === 'session/prompt')).toHaveLength(5);
  expect(methods.filter((method) => method === 'answer')).toHaveLength(7);
  expect(methods.filter((method) => method === 'session/update')).toHaveLength(4);
}, 30_000);

test('--pass-through reads nothing: the host’s buzzContext reaches the agent, and the recording has it all', async () => {
  const file = path.join(dir, 'pass-through.ndjson');
  const proxied = await startProxied(['--pass-through', '--record', file]);
  const spoof = { trust: 'verified', keys: { sender: 'buzz:pubkey:spoofed' } };
  const response = await proxied.prompt('echo', { buzz: jsonCopy(sampleEnvelope()), buzzContext: spoof });
  expect((response._meta?.received as { buzzContext: unknown }).buzzContext).toEqual(spoof);
  expect(await proxied.stop()).toBe(0);
  expect(proxied.stderr()).toBe(
    'buzz-meta proxy: pass-through: prompts are not read and a host-sent _meta.buzzContext reaches the agent as sent\n' +
      'fixture: prompt echo\n',
  );
  const reports = await reportsOf(file);
  expect(reports.map((report) => report.ok && report.trust)).toEqual(['verified']);
}, 30_000);
