/**
 * JSON-RPC as the relay sees it: what kind of message a parsed line is (own properties only), and
 * the few answers the proxy writes itself, shaped as the ACP SDK shapes them, so a host cannot
 * tell a proxy's error from an SDK agent's.
 */
import { BuzzTurnError, TURN_ERROR_CODE } from '../acp/turn-runner.js';
import { BuzzMetaError } from '../errors.js';

/** A JSON-RPC id (`null` only when a sender used it). */
export type RpcId = string | number | null;

/** A parsed line, by kind. */
type Classified =
  | { readonly kind: 'request'; readonly method: string; readonly id: RpcId }
  | { readonly kind: 'notification'; readonly method: string }
  | { readonly kind: 'response'; readonly id: RpcId }
  | { readonly kind: 'other' };

function isId(value: unknown): value is RpcId {
  return typeof value === 'string' || typeof value === 'number' || value === null;
}

/** What kind of JSON-RPC message `message` (a parsed object) is. */
export function classify(message: Record<string, unknown>): Classified {
  if (Object.hasOwn(message, 'method')) {
    const method = message.method;
    if (typeof method !== 'string') return { kind: 'other' };
    if (!Object.hasOwn(message, 'id')) return { kind: 'notification', method };
    const id = message.id;
    return isId(id) ? { kind: 'request', method, id } : { kind: 'other' };
  }
  if (Object.hasOwn(message, 'id') && (Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error'))) {
    const id = message.id;
    return isId(id) ? { kind: 'response', id } : { kind: 'other' };
  }
  return { kind: 'other' };
}

/** The key of an id in the relay's maps: `1` and `"1"` are different requests. */
export function idKey(id: RpcId): string {
  return JSON.stringify(id);
}

/** One line of JSON-RPC: a result. */
export function resultLine(id: RpcId, result: unknown): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`;
}

/** One line of JSON-RPC: an error. */
export function errorLine(id: RpcId, code: number, message: string, data?: unknown): string {
  const error = data === undefined ? { code, message } : { code, message, data };
  return `${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`;
}

/** The SDK's `-32603 Internal error`, its `data.details` naming what happened. */
export function internalErrorLine(id: RpcId, details: string): string {
  return errorLine(id, -32603, 'Internal error', { details });
}

/**
 * The error line of a failure thrown by the turn: a {@link BuzzTurnError} (events held elsewhere,
 * the store down under fail-closed) as `buzz-meta/acp` writes it, with its code in `data`.
 */
export function thrownErrorLine(id: RpcId, error: unknown): string {
  if (error instanceof BuzzTurnError) return errorLine(id, TURN_ERROR_CODE, 'Internal error', error.data);
  if (error instanceof BuzzMetaError) return internalErrorLine(id, error.message);
  return internalErrorLine(id, 'internal error in buzz-meta proxy');
}
