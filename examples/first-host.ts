// The README's host side: start the agent of examples/first-agent.ts as a child process, send it
// one signed delivery over ACP, print its stop reason (`end_turn`). In your project, import from
// 'buzz-meta/host' and 'buzz-meta/acp', and spawn your own agent command.
// --- snippet ---
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { client, methods, PROTOCOL_VERSION, type PromptRequest } from '@agentclientprotocol/sdk';
import { childStream } from '../src/acp/index.js';
import { generateSecretKey, getPublicKey, signEvent, withBuzzEnvelope } from '../src/host.js';
import { toNpub } from '../src/index.js';

const agentKey = generateSecretKey(); // the host signs envelopes with the agent's key
const ownerKey = generateSecretKey(); // a human in the channel
const channelId = randomUUID();
const agentFile = fileURLToPath(new URL('first-agent.ts', import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', agentFile], {
  stdio: ['pipe', 'pipe', 'inherit'],
  env: { ...process.env, BUZZ_AGENT_NPUB: toNpub(getPublicKey(agentKey)) },
});
const { agent } = client({ name: 'my-host' }).connect(childStream(child));

try {
  await agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION });
  const cwd = process.cwd();
  const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
  const now = Math.floor(Date.now() / 1000);
  const message = { kind: 9, created_at: now, tags: [['h', channelId]], content: 'hi' };
  const event = signEvent(message, ownerKey); // signed by its author, as Buzz events are
  const ownerPubkey = getPublicKey(ownerKey);
  const envelope = { agentSecretKey: agentKey, channelId, ownerPubkey, events: [event] };
  const prompt: PromptRequest = { sessionId, prompt: [{ type: 'text', text: 'hi' }] };
  const params = withBuzzEnvelope(prompt, envelope); // _meta.buzz: a signed v1 envelope
  const answer = await agent.request(methods.agent.session.prompt, params);
  console.log(answer.stopReason); // 'end_turn'
  child.stdin.end(); // the agent exits when its stdin ends
} catch (error) {
  console.error(`my-host: ${error instanceof Error ? error.message : String(error)}`);
  child.kill(); // a failed request leaves no agent running
  process.exitCode = 1;
}
