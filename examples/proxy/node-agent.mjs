#!/usr/bin/env node
// A tiny ACP agent in plain Node, without buzz-meta and without the ACP SDK: run it behind the
// proxy, which reads and checks the Buzz context of every prompt and hands it over as
// `_meta.buzzContext` (docs/proxy.md):
//
//   buzz-meta proxy --agent-pubkey npub1… -- node examples/proxy/node-agent.mjs
//
// It greets the sender of the last event, and says how well that sender is proven. ACP is
// newline-delimited JSON-RPC on stdin/stdout; stdout carries only the protocol, logs go to stderr.
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const say = (sessionId, text) =>
  send({
    method: 'session/update',
    params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } },
  });

function answerPrompt({ sessionId, _meta }) {
  // Only the proxy writes buzzContext: one the host sent never gets here.
  const buzz = _meta?.buzzContext;
  if (buzz === undefined) {
    say(sessionId, 'Hello! (no Buzz context came with this prompt)');
    return { stopReason: 'end_turn' };
  }
  // keys.sender is "buzz:pubkey:<hex>" of the last event's author; trust says how well it is proven.
  const sender = buzz.keys.sender ?? 'nobody';
  say(sessionId, `Hello ${sender} in ${buzz.keys.channel} (trust: ${buzz.trust}, ${buzz.events.length} event(s))`);
  return { stopReason: 'end_turn', _meta: { seenContext: buzz } };
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  const { id, method, params } = JSON.parse(line);
  if (method === 'initialize') send({ id, result: { protocolVersion: 1, agentCapabilities: {} } });
  else if (method === 'session/new') send({ id, result: { sessionId: 'node-session' } });
  else if (method === 'session/prompt') send({ id, result: answerPrompt(params) });
  else if (method === 'session/cancel') process.stderr.write('node agent: nothing to cancel\n');
  else if (id !== undefined) send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
});
