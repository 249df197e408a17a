/**
 * `buzz-meta/acp`'s stdio helpers over real Node streams in process: an agent app served with
 * `nodeStream` and a host connected with `childStream` talk ACP through two pipes, as a host and
 * its agent child process do (the examples run the same helpers across real processes).
 */
import { PassThrough } from 'node:stream';
import { agent, client, methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { describe, expect, test } from 'vitest';
import { childStream, nodeStream } from '../../src/acp/index.js';

describe('nodeStream and childStream', () => {
  test('a host on childStream and an agent on nodeStream complete initialize and a prompt', async () => {
    const toAgent = new PassThrough();
    const toHost = new PassThrough();
    const app = agent({ name: 'stdio-test' })
      .onRequest(methods.agent.initialize, () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }))
      .onRequest(methods.agent.session.new, () => ({ sessionId: 's1' }))
      .onRequest(methods.agent.session.prompt, ({ params }) => ({
        stopReason: 'end_turn' as const,
        _meta: { echoed: params.sessionId },
      }));
    // The agent writes to its stdout (toHost) and reads its stdin (toAgent).
    const served = app.connect(nodeStream(toHost, toAgent));
    const answer = await client({ name: 'stdio-test-host' }).connectWith(
      childStream({ stdin: toAgent, stdout: toHost }),
      async (host) => {
        const init = await host.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION });
        expect(init.protocolVersion).toBe(PROTOCOL_VERSION);
        const { sessionId } = await host.request(methods.agent.session.new, { cwd: '/', mcpServers: [] });
        return host.request(methods.agent.session.prompt, { sessionId, prompt: [] });
      },
    );
    expect(answer).toEqual({ stopReason: 'end_turn', _meta: { echoed: 's1' } });
    served.close();
    toAgent.end();
  });

  test('childStream refuses a child without piped stdin or stdout', () => {
    const message = "the child process needs stdio: ['pipe', 'pipe', …]";
    expect(() => childStream({ stdin: null, stdout: new PassThrough() })).toThrow(new TypeError(message));
    expect(() => childStream({ stdin: new PassThrough(), stdout: null })).toThrow(new TypeError(message));
  });
});
