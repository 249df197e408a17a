// A test of an agent's legacy path, as docs/recipes.md shows it (importing 'buzz-meta'): it
// starts examples/admin-command-agent.ts, sends it prompt text of every era as a host without
// `_meta.buzz` renders it, and checks what the agent did with it. Run it with
// `node --import tsx --test examples/legacy-path-test.ts` (test/examples/legacy-path.test.ts does).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { client, methods, PROTOCOL_VERSION, type PromptRequest } from '@agentclientprotocol/sdk';
import { childStream } from '../src/acp/index.js';
import { generateSecretKey, getPublicKey, renderPromptText } from '../src/host.js';
import { toNpub } from '../src/index.js';

const admin = getPublicKey(generateSecretKey()); // on the agent's admin list
const channel = { id: randomUUID(), name: 'ops' };
const agentFile = fileURLToPath(new URL('admin-command-agent.ts', import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', agentFile], {
  stdio: ['pipe', 'pipe', 'inherit'],
  env: {
    ...process.env,
    BUZZ_AGENT_NPUB: toNpub(getPublicKey(generateSecretKey())),
    BUZZ_ADMIN_NPUBS: toNpub(admin),
  },
});
let said = ''; // the agent's agent_message_chunk text for the current prompt
const host = client({ name: 'test-host' })
  .onNotification(methods.client.session.update, ({ params }) => {
    const { update } = params;
    if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') said += update.content.text;
  })
  .connect(childStream(child));
await host.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION });
const { sessionId } = await host.agent.request(methods.agent.session.new, { cwd: process.cwd(), mcpServers: [] });

/** Sends one event by the admin as `era` prompt text (no `_meta`); returns the stop reason and what the agent said. */
async function send(era: 'v1' | 'v2' | 'v3' | 'v4' | 'v5', content: string, at: number) {
  const event = { pubkey: admin, created_at: at, kind: 9, tags: [['h', channel.id]], content };
  said = '';
  const params: PromptRequest = { sessionId, prompt: renderPromptText({ era, channel, events: [event] }) };
  const { stopReason } = await host.agent.request(methods.agent.session.prompt, params);
  return { stopReason, said };
}

for (const [index, era] of (['v1', 'v2', 'v3', 'v4', 'v5'] as const).entries()) {
  const at = 1_767_225_600 + 10 * index; // another time per era: the agent's deduper sees new events

  await test(`${era} text: a question is answered`, async () => {
    assert.deepEqual(await send(era, 'is the build green?', at), {
      stopReason: 'end_turn',
      said: 'You asked: is the build green?',
    });
  });

  await test(`${era} text: an admin's command is not run, since text proves no sender`, async () => {
    assert.deepEqual(await send(era, '/admin rotate the logs', at + 1), {
      stopReason: 'end_turn',
      said: 'Admin commands need a verified admin; this message is scraped.',
    });
  });
}

host.close(); // each test was awaited: all have run
child.stdin.end(); // the agent exits when its stdin ends
