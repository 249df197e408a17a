/**
 * One agent app over the real ACP SDK, paired in process with a host (real request parsing and
 * dispatch, no child process), whose prompt handler is `buzzHandlers(options, handler)`.
 */
import { agent, client, type ClientContext, methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import {
  buzzHandlers,
  type BuzzHandlersOptions,
  type BuzzPromptHandler,
  type MissingContextPolicy,
} from '../../../src/acp/index.js';
import type { BuzzContext } from '../../../src/context.js';
import { createBuzzReader } from '../../../src/index.js';
import { AGENT } from '../../support/keys.js';

/**
 * Runs `body` with a host connected to that agent and one session opened; the reader pins
 * {@link AGENT}'s key unless `options.reader` is given.
 */
export async function withAgent<T, M extends MissingContextPolicy = 'pass'>(
  options: Partial<BuzzHandlersOptions<BuzzContext, M>>,
  handler: BuzzPromptHandler<BuzzContext, M>,
  body: (host: ClientContext, sessionId: string) => Promise<T>,
): Promise<T> {
  const reader = options.reader ?? (await createBuzzReader({ agentPubkey: AGENT.npub, backend: 'js' }));
  const handlers = buzzHandlers({ ...options, reader }, handler);
  const app = agent({ name: 'test-agent' })
    .onRequest(methods.agent.initialize, () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }))
    .onRequest(methods.agent.session.new, () => ({ sessionId: 's1' }))
    .onRequest(methods.agent.session.prompt, handlers.prompt)
    .onNotification(methods.agent.session.cancel, handlers.cancel);
  return client({ name: 'test-host' }).connectWith(app, async (host) => {
    await host.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION });
    const { sessionId } = await host.request(methods.agent.session.new, { cwd: '/', mcpServers: [] });
    return body(host, sessionId);
  });
}
