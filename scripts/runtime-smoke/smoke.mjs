// The runtime smoke suite (scripts/check-runtimes.mjs runs it on every pinned runtime, against
// the packed tarball installed in a scratch project). Plain JavaScript, so every runtime runs the
// same file; Deno gets a copy whose package imports are `npm:` specifiers.
//
// 1. Every read vector of test/vectors (copied next to this file) through readBuzzContext.
// 2. The signed vectors through createBuzzReader with the wasm backend.
// 3. A memory dedup round: claim, a concurrent claim held off, commit, a redelivery all handled.
// 4. An ACP round trip over stdio: this file, as the host, starts agent.mjs on the same runtime
//    (the command is in SMOKE_AGENT, a JSON array), sends a signed delivery, the same delivery
//    again and a tampered one, and checks each answer and the agent's reply.
// Prints one line per step and exits 1 at the first failure.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { client, methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { createBuzzReader, createDeduper, readBuzzContext, toNpub } from 'buzz-meta';
import { childStream } from 'buzz-meta/acp';
import { generateSecretKey, getPublicKey, signEvent, withBuzzEnvelope } from 'buzz-meta/host';

const vectorDir = new URL('vectors/', import.meta.url);
const load = (name) => JSON.parse(readFileSync(new URL(name, vectorDir), 'utf8'));
/** What a read result says, as plain JSON (what the vectors write down). */
const outcome = (read) => (read.ok ? { ok: true, context: read.context } : [read.error.code, read.error.path]);
const expected = (vector) => (vector.expect.ok ? vector.expect : [vector.expect.code, vector.expect.path]);
const plain = (value) => JSON.parse(JSON.stringify(value));

async function step(name, run) {
  const started = performance.now();
  const detail = await run();
  console.log(`ok ${name}: ${detail} (${Math.round(performance.now() - started)} ms)`);
}

const signed = ['envelope-valid.json', 'envelope-mutations.json', 'envelope-invalid.json'].flatMap(
  (file) => load(file).cases,
);
const drafts = ['draft.json', 'draft-pr4751.json', 'draft-pr7063.json'].flatMap((file) => {
  const { valid, invalid } = load(file);
  return [...valid, ...invalid];
});
const texts = readdirSync(new URL('text/', vectorDir))
  .filter((name) => name.endsWith('.json'))
  .flatMap((name) => load(`text/${name}`).cases);

await step('vectors through readBuzzContext', () => {
  for (const vector of [...signed, ...drafts]) {
    assert.deepStrictEqual(
      plain(outcome(readBuzzContext(vector.params, vector.options))),
      expected(vector),
      vector.name,
    );
  }
  for (const vector of texts) {
    const read = readBuzzContext(vector.params);
    const got = vector.expect.ok ? (read.ok ? read.context : read.error.message) : outcome(read);
    assert.deepStrictEqual(plain(got), vector.expect.ok ? vector.expect.context : expected(vector), vector.name);
  }
  return `${signed.length} envelope, ${drafts.length} draft, ${texts.length} text cases`;
});

await step('signed vectors through createBuzzReader({ backend: "wasm" })', async () => {
  const readers = new Map();
  let refused = 0;
  for (const vector of signed) {
    const key = JSON.stringify(vector.options);
    if (!readers.has(key)) {
      // Options that could accept nothing are refused by the reader itself, with the code the read gives.
      const made = await createBuzzReader({ ...vector.options, backend: 'wasm' }).then(
        (reader) => ({ ok: true, reader }),
        (error) => ({ ok: false, error }),
      );
      readers.set(key, made);
    }
    const made = readers.get(key);
    if (!made.ok) {
      refused++;
      assert.deepStrictEqual([made.error.code, made.error.path], expected(vector), vector.name);
      continue;
    }
    assert.equal(made.reader.backend, 'wasm');
    assert.deepStrictEqual(plain(outcome(made.reader.read(vector.params))), expected(vector), vector.name);
  }
  return `${signed.length} cases (${refused} with options the reader refuses), ${readers.size} option sets`;
});

await step('memory dedup round', async () => {
  const vector = load('envelope-valid.json').cases[0];
  const { context } = readBuzzContext(vector.params, vector.options);
  const ids = context.events.map((event) => event.id);
  const deduper = createDeduper();
  const first = await deduper.claim(context);
  assert.deepStrictEqual(
    first.fresh.map((event) => event.id),
    ids,
  );
  const during = await deduper.claim(context);
  assert.deepStrictEqual([during.fresh.length, during.held.map((event) => event.id)], [0, ids]);
  await first.commit();
  const after = await deduper.claim(context);
  assert.deepStrictEqual([after.fresh.length, after.handled.map((event) => event.id)], [0, ids]);
  return `${ids.length} events claimed, held off, committed, then all handled`;
});

await step('ACP round trip over stdio', async () => {
  const [command, ...args] = JSON.parse(process.env.SMOKE_AGENT ?? '[]');
  const agentKey = generateSecretKey();
  const ownerKey = generateSecretKey();
  const channelId = randomUUID();
  const child = spawn(command, args, {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, BUZZ_AGENT_NPUB: toNpub(getPublicKey(agentKey)) },
  });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const said = [];
  const event = signEvent(
    { kind: 9, created_at: Math.floor(Date.now() / 1000), tags: [['h', channelId]], content: 'hi' },
    ownerKey,
  );
  const answers = await client({ name: 'smoke-host' })
    .onNotification(methods.client.session.update, ({ params }) => {
      if (params.update.sessionUpdate === 'agent_message_chunk') said.push(params.update.content.text);
    })
    .connectWith(childStream(child), async (agent) => {
      await agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION });
      const { sessionId } = await agent.request(methods.agent.session.new, { cwd: process.cwd(), mcpServers: [] });
      const envelope = { agentSecretKey: agentKey, channelId, ownerPubkey: getPublicKey(ownerKey), events: [event] };
      const prompt = withBuzzEnvelope({ sessionId, prompt: [{ type: 'text', text: 'hi' }] }, envelope);
      const tampered = plain(prompt);
      tampered._meta.buzz.events[0].content = 'hi, from someone else';
      const results = [];
      for (const params of [prompt, prompt, tampered]) {
        results.push(await agent.request(methods.agent.session.prompt, params));
      }
      return results;
    })
    .finally(() => child.stdin.end());
  const outcomes = answers.map(({ stopReason, _meta }) => {
    const { outcome = null, seen = null, code = null } = _meta?.buzzMeta ?? {};
    return [stopReason, outcome, seen, code];
  });
  assert.deepStrictEqual(outcomes, [
    ['end_turn', null, null, null],
    ['end_turn', 'all-seen', 1, null],
    ['refusal', 'refused', null, 'payload_hash_mismatch'],
  ]);
  assert.deepStrictEqual(said, [`hello ${toNpub(getPublicKey(ownerKey))}`]);
  assert.equal(await exited, 0);
  return 'a verified turn, a redelivery answered all-seen, a tampered envelope refused, the agent exited 0';
});
