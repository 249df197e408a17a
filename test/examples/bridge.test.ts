/**
 * examples/bridge.ts over stdio with the real SDK client, forwarding to a local HTTP server that
 * plays the upstream: the partition id it receives is the muxi-style key of the delivery.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AGENT, OWNER } from '../support/keys.js';
import { CHANNEL_ID, sampleEnvelope } from '../envelope/sample.js';
import { type AgentProcess, startExample } from './support/agent-process.js';

let upstream: Server;
const received: unknown[] = [];
let bridge: AgentProcess;

beforeAll(async () => {
  upstream = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push(JSON.parse(body));
      response.setHeader('content-type', 'application/json').end(JSON.stringify({ reply: 'noted' }));
    });
  }).listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  const { port } = upstream.address() as AddressInfo;
  bridge = await startExample('bridge', {
    BUZZ_AGENT_NPUB: AGENT.npub,
    UPSTREAM_URL: `http://127.0.0.1:${String(port)}/turn`,
    PARTITION_UNIT: 'sender',
  });
}, 30_000);

afterAll(async () => {
  expect(await bridge.stop()).toBe(0);
  upstream.close();
});

describe('examples/bridge.ts', () => {
  test('forwards the sender partition id, with its trust, and relays the reply', async () => {
    const result = await bridge.prompt({ buzz: sampleEnvelope() }, 'summarize');
    expect(result).toEqual({ response: { stopReason: 'end_turn' }, text: 'noted' });
    expect(received).toEqual([{ partitionId: `buzz:pubkey:${OWNER.pubkey}`, trust: 'verified', text: 'summarize' }]);
  });

  test('a draft is forwarded as asserted; a prompt without Buzz context is not forwarded', async () => {
    received.length = 0;
    const draft = {
      channelId: CHANNEL_ID,
      channelType: 'dm',
      events: [{ id: 'd'.repeat(64), sender: OWNER.pubkey, kind: 9, createdAt: 1 }],
    };
    await bridge.prompt({ buzz: draft }, 'hi');
    const none = await bridge.prompt(undefined, 'hi');
    expect(received).toEqual([{ partitionId: `buzz:pubkey:${OWNER.pubkey}`, trust: 'asserted', text: 'hi' }]);
    expect(none.response.stopReason).toBe('refusal');
  });
});
