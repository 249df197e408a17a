/**
 * `_meta.buzzContext` v1: the turn's `BuzzContext` as plain JSON for an agent in any language,
 * with its keys and what the deduper decided. Every field is always present (`null` where the
 * source does not say), so an agent reads it without checking for keys; new fields may be added
 * to v1, none removed or changed (docs/schema/buzz-context-v1.json is the contract).
 */
import type { BuzzTurn } from '../acp/turn-runner.js';
import type { BuzzContext, BuzzEvent } from '../context.js';
import { partitionId, senderKeys } from '../keys.js';

/** The version of the shape below. */
const BUZZ_CONTEXT_VERSION = 1;

/** One event as JSON. */
interface BuzzEventJson {
  readonly id: string | null;
  readonly sender: string;
  readonly kind: number | null;
  readonly createdAt: number | null;
  readonly content: string | null;
  readonly tags: readonly (readonly string[])[] | null;
  readonly senderLabel: string | null;
}

/** `_meta.buzzContext` v1. */
interface BuzzContextJson {
  readonly version: 1;
  readonly source: BuzzContext['source'];
  readonly trust: BuzzContext['trust'];
  readonly channel: {
    readonly id: string;
    readonly type: BuzzContext['channelType'];
    readonly name: string | null;
    readonly hostType: string | null;
  };
  readonly deliveryId: string | null;
  readonly events: readonly (BuzzEventJson & { readonly fresh: boolean })[];
  readonly cancelledEvents: readonly (BuzzEventJson & { readonly carried: boolean })[];
  readonly reply: {
    readonly rootEventId: string;
    readonly parentEventId: string | null;
    readonly replyToEventId: string;
  } | null;
  readonly owner: string | null;
  readonly agent: string | null;
  readonly members: readonly { readonly pubkey: string; readonly role: string }[] | null;
  readonly membershipRevision: string | null;
  readonly job: {
    readonly jobId: string;
    readonly action: string;
    readonly eventId: string;
    readonly title: string;
    readonly dueAt: number | null;
  } | null;
  readonly keys: {
    readonly channel: string;
    readonly sender: string | null;
    readonly senders: readonly string[];
    readonly thread: string | null;
  };
  readonly dedup: boolean;
  readonly dedupBypassed: string | null;
  readonly diagnostics: readonly string[];
}

function eventJson(event: BuzzEvent): BuzzEventJson {
  return {
    id: event.id,
    sender: event.sender,
    kind: event.kind,
    createdAt: event.createdAt,
    content: event.content ?? null,
    tags: event.tags ?? null,
    senderLabel: event.senderLabel ?? null,
  };
}

/**
 * The JSON of one turn. `dedup` says whether a deduper decided `fresh` and `carried` (without
 * one every event is fresh and every cancelled event carried), `dedupBypassed` why it could not
 * (its store failed, under fail-open); `diagnostics` are the proxy's own, after the context's.
 */
export function buzzContextJson(
  turn: BuzzTurn,
  options: { readonly prefix?: string | undefined; readonly dedup: boolean; readonly diagnostics: readonly string[] },
): BuzzContextJson {
  const { context: ctx, keys } = turn;
  const fresh = new Set<BuzzEvent>(turn.fresh);
  const carried = new Set<BuzzEvent>(turn.carried);
  const keyOptions = options.prefix === undefined ? undefined : { prefix: options.prefix };
  // The multi-sender note of the sender partition, as muxi's acp-bridge logs it today.
  const senderNotes = ctx.events.length === 0 ? [] : partitionId(ctx, { unit: 'sender', ...keyOptions }).diagnostics;
  return {
    version: BUZZ_CONTEXT_VERSION,
    source: ctx.source,
    trust: ctx.trust,
    channel: {
      id: ctx.channelId,
      type: ctx.channelType,
      name: ctx.source === 'prompt-text' ? (ctx.channelName ?? null) : null,
      hostType: ctx.source === 'meta-draft' ? (ctx.hostChannelType ?? null) : null,
    },
    deliveryId: ctx.source === 'envelope-v1' ? ctx.deliveryId : null,
    events: ctx.events.map((event) => ({ ...eventJson(event), fresh: fresh.has(event) })),
    cancelledEvents: ctx.cancelledEvents.map((event) => ({ ...eventJson(event), carried: carried.has(event) })),
    reply: ctx.source === 'meta-draft' ? null : (ctx.reply ?? null),
    owner: ctx.source === 'envelope-v1' ? ctx.owner : null,
    agent: ctx.source === 'envelope-v1' ? ctx.agent : null,
    members: ctx.source === 'envelope-v1' ? ctx.members : null,
    membershipRevision: ctx.source === 'envelope-v1' ? ctx.membershipRevision : null,
    job: ctx.source === 'envelope-v1' ? (ctx.job ?? null) : null,
    keys: {
      channel: keys.channel,
      sender: keys.sender,
      senders: senderKeys(ctx, keyOptions),
      thread: keys.thread,
    },
    dedup: options.dedup,
    dedupBypassed: turn.dedupBypassed?.message ?? null,
    diagnostics: [...ctx.diagnostics, ...senderNotes, ...options.diagnostics],
  };
}
