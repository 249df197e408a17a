/**
 * The facts `inspect` prints about one `session/prompt`: what was read (or why not), each event
 * with its sender in hex and npub, the partition keys, the diagnostics. Plain JSON, so `--json`
 * and the table print the same facts.
 */
import type { BuzzContext, BuzzEvent } from '../context.js';
import { channelKey, senderKey, senderKeys, threadKey } from '../keys.js';
import { toNpub } from '../npub.js';
import type { BuzzReadResult } from '../read/read.js';
import type { AnswerReport } from './answers.js';
import type { FoundPrompt } from './input.js';
import { isoTime } from './iso-time.js';
import { memoized } from './memo.js';

/** One event as printed. */
export interface EventReport {
  /** Event id, or `null` for text eras that never rendered it. */
  readonly id: string | null;
  /** Sender pubkey, 64 hex. */
  readonly sender: string;
  /** The sender as an npub. */
  readonly npub: string;
  /** Nostr kind, or `null` where the source does not say. */
  readonly kind: number | null;
  /** Unix seconds, or `null` where the source does not say (PR #7063 drafts). */
  readonly createdAt: number | null;
  /** `createdAt` as an ISO 8601 UTC time, or `null` with it. */
  readonly time: string | null;
}

/** Everything `inspect` says about one prompt. */
export type PromptReport = {
  /** 1-based input line of the prompt. */
  readonly line: number;
  /** JSON-RPC request id, `null` for a bare params object. */
  readonly requestId: string | number | null;
  /** The agent's answer found in the input (same JSON-RPC id), or `null` when it holds none. */
  readonly answer: AnswerReport | null;
} & (
  | {
      readonly ok: true;
      readonly source: BuzzContext['source'];
      readonly trust: BuzzContext['trust'];
      readonly channel: { readonly id: string; readonly type: BuzzContext['channelType'] };
      readonly deliveryId: string | null;
      readonly events: readonly EventReport[];
      readonly cancelledEvents: readonly EventReport[];
      readonly keys: {
        readonly channel: string;
        readonly sender: string | null;
        readonly senders: readonly string[];
        readonly thread: string | null;
      };
      readonly diagnostics: readonly string[];
    }
  | {
      readonly ok: false;
      readonly error: { readonly code: string; readonly path: string; readonly message: string };
    }
);

/** Senders repeat across a capture, and bech32 encoding costs more than the rest of a report: remember the last few thousand. */
const npubOf = memoized(toNpub, 4096);

function eventReport(event: BuzzEvent): EventReport {
  return {
    id: event.id,
    sender: event.sender,
    npub: npubOf(event.sender),
    kind: event.kind,
    createdAt: event.createdAt,
    time: event.createdAt === null ? null : isoTime(event.createdAt),
  };
}

/** The report of one prompt from its read result, and its answer when known. */
export function promptReport(
  found: FoundPrompt,
  read: BuzzReadResult,
  answer: AnswerReport | null = null,
): PromptReport {
  const { line, requestId } = found;
  if (!read.ok) {
    const { code, path, reason } = read.error;
    return { line, requestId, ok: false, error: { code, path, message: reason }, answer };
  }
  const ctx = read.context;
  return {
    line,
    requestId,
    ok: true,
    source: ctx.source,
    trust: ctx.trust,
    channel: { id: ctx.channelId, type: ctx.channelType },
    deliveryId: ctx.source === 'envelope-v1' ? ctx.deliveryId : null,
    events: ctx.events.map(eventReport),
    cancelledEvents: ctx.cancelledEvents.map(eventReport),
    keys: {
      channel: channelKey(ctx),
      sender: ctx.events.length === 0 ? null : senderKey(ctx),
      senders: senderKeys(ctx),
      thread: threadKey(ctx),
    },
    diagnostics: ctx.diagnostics,
    answer,
  };
}
