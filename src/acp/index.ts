/**
 * `buzz-meta/acp`: Buzz context for agents built on `@agentclientprotocol/sdk` 2.x (an optional
 * peer dependency that only this entry point imports). One wrapper for the `session/prompt` and
 * `session/cancel` handlers, and the stdio connection.
 *
 * @packageDocumentation
 * @module buzz-meta/acp
 */
export { buzzHandlers, BUZZ_OUTCOME_META_KEY } from './handlers.js';
export type {
  BuzzHandlers,
  BuzzHandlersOptions,
  BuzzPromptContext,
  BuzzPromptHandler,
  BuzzPromptOutcome,
  BuzzTurn,
  BuzzTurnErrorData,
  BuzzTurnKeys,
  MissingContextPolicy,
} from './handlers.js';
export { childStream, connectStdio, nodeStream } from './stdio.js';
export type { ChildPipes } from './stdio.js';
