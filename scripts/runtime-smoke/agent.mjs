// The smoke suite's ACP agent (scripts/runtime-smoke/smoke.mjs starts it on the runtime under
// test): buzz-meta/acp around the SDK on stdio, a wasm reader pinned to BUZZ_AGENT_NPUB that
// accepts only verified context, a memory deduper. Each turn answers the user with one
// agent_message_chunk naming the sender's npub.
import { agent, methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { createBuzzReader, createDeduper, toNpub } from 'buzz-meta';
import { buzzHandlers, connectStdio } from 'buzz-meta/acp';

const reader = await createBuzzReader({
  agentPubkey: process.env.BUZZ_AGENT_NPUB ?? '',
  minTrust: 'verified',
  backend: 'wasm',
});

const buzz = buzzHandlers({ reader, deduper: createDeduper(), missing: 'refuse' }, async ({ params, client, buzz }) => {
  const sender = buzz.context.events.at(-1)?.sender ?? '';
  await client.notify(methods.client.session.update, {
    sessionId: params.sessionId,
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `hello ${toNpub(sender)}` } },
  });
  return { stopReason: 'end_turn' };
});

await connectStdio(
  agent({ name: 'smoke-agent' })
    .onRequest(methods.agent.initialize, () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }))
    .onRequest(methods.agent.session.new, () => ({ sessionId: 'smoke-session' }))
    .onRequest(methods.agent.session.prompt, buzz.prompt)
    .onNotification(methods.agent.session.cancel, buzz.cancel),
).closed;
