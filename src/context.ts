/**
 * The normalized context every source is read into: one type, so agent code never branches on
 * the wire shape, and a `trust` label, so agent code can tell what was proven from what was said.
 * Types only; nothing here runs.
 */
import type { BuzzMetaError } from './errors.js';

/**
 * Where a context came from.
 *
 * @example
 * ```ts
 * import type { BuzzSource } from 'buzz-meta'
 *
 * const from: Record<BuzzSource, string> = {
 *   'envelope-v1': 'a v1 envelope',
 *   'meta-draft': 'an unsigned draft',
 *   'prompt-text': 'the prompt text',
 * }
 * console.error(`read from ${from[context.source]}`)
 * ```
 * @group Context
 */
export type BuzzSource = 'envelope-v1' | 'meta-draft' | 'prompt-text';

/**
 * How well a context is proven, strongest first:
 * - `verified`: a v1 envelope whose attestation verified against the agent's pinned key and whose
 *   every event verified against its author's key;
 * - `asserted`: structured `_meta.buzz` the transport sent but nobody proved (draft shape, or a v1
 *   envelope read without a pinned key);
 * - `scraped`: rebuilt from model-visible prompt text that any message could forge.
 *
 * @example
 * ```ts
 * import type { Trust } from 'buzz-meta'
 *
 * const rank: Record<Trust, number> = { scraped: 0, asserted: 1, verified: 2 }
 * const atLeast = (trust: Trust, floor: Trust): boolean => rank[trust] >= rank[floor]
 * if (!atLeast(context.trust, 'verified')) console.error('read-only: not proven')
 * ```
 * @group Context
 */
export type Trust = 'verified' | 'asserted' | 'scraped';

/**
 * The kind of Buzz channel; `unknown` where the source does not say.
 *
 * @example
 * ```ts
 * import type { BuzzChannelType } from 'buzz-meta'
 *
 * const type: BuzzChannelType = context.channelType // 'unknown' where the source does not say
 * const answerInThread = type !== 'dm'
 * ```
 * @group Context
 */
export type BuzzChannelType = 'dm' | 'channel' | 'unknown';

/**
 * A member of a channel as listed in a v1 envelope.
 *
 * @example
 * ```ts
 * import type { BuzzMember } from 'buzz-meta'
 *
 * if (context.trust === 'verified') {
 *   const admins: BuzzMember[] = context.members.filter((member) => member.role !== 'member')
 * }
 * ```
 * @group Context
 */
export interface BuzzMember {
  /** 64 lowercase hex digits. */
  readonly pubkey: string;
  /** The member's role in the channel. */
  readonly role: 'owner' | 'admin' | 'member';
}

/**
 * One chat event of a delivery, normalized across sources.
 *
 * @example
 * ```ts
 * // BuzzEvent: import type { BuzzEvent } from 'buzz-meta'
 * const events: readonly BuzzEvent[] = context.events // every source
 * const last = events.at(-1)
 * console.error(last?.sender, last?.content ?? '(no text here: it is only in the prompt)')
 * ```
 * @group Context
 */
export interface BuzzEvent {
  /** NIP-01 event id (64 lowercase hex); `null` only for prompt-text eras that never rendered it. */
  readonly id: string | null;
  /** The author's pubkey, 64 lowercase hex. */
  readonly sender: string;
  /**
   * Nostr event kind; `null` only where the source does not carry it (the earliest prompt-text era,
   * PR #7063's draft events).
   */
  readonly kind: number | null;
  /** Unix seconds; `null` only where the source does not carry it (PR #7063's draft events). */
  readonly createdAt: number | null;
  /** Message text, where the source carries it (v1 envelope, prompt text). */
  readonly content?: string;
  /** Nostr tags, where the source carries them. */
  readonly tags?: readonly (readonly string[])[];
  /** A display name the host rendered next to the sender (prompt text only; untrusted). */
  readonly senderLabel?: string;
}

/**
 * A {@link BuzzEvent} from an unsigned draft: its id and sender are always known; its kind and time
 * are `null` when the host's dialect does not send them (PR #7063 sends only `id` and `authorPubkey`).
 *
 * @example
 * ```ts
 * import type { BuzzDraftEvent } from 'buzz-meta'
 *
 * if (context.source === 'meta-draft') {
 *   const first: BuzzDraftEvent | undefined = context.events[0]
 *   console.error(first?.id, first?.kind ?? 'kind not sent by this dialect')
 * }
 * ```
 * @group Context
 */
export interface BuzzDraftEvent extends BuzzEvent {
  /** NIP-01 event id, 64 lowercase hex. */
  readonly id: string;
}

/**
 * A {@link BuzzEvent} from structured `_meta.buzz` with every field known.
 *
 * @example
 * ```ts
 * import type { BuzzIdentifiedEvent } from 'buzz-meta'
 *
 * const oldestFirst = (a: BuzzIdentifiedEvent, b: BuzzIdentifiedEvent): number => a.createdAt - b.createdAt
 * if (context.source === 'envelope-v1') console.error([...context.events].sort(oldestFirst)[0]?.id)
 * ```
 * @group Context
 */
export interface BuzzIdentifiedEvent extends BuzzDraftEvent {
  /** Nostr event kind. */
  readonly kind: number;
  /** Unix seconds. */
  readonly createdAt: number;
}

/**
 * A complete signed event from a v1 envelope.
 *
 * @example
 * ```ts
 * import type { BuzzSignedEvent } from 'buzz-meta'
 *
 * if (context.trust === 'verified') {
 *   const events: readonly BuzzSignedEvent[] = context.events // each signed by its sender
 *   console.error(events.map((event) => event.tags.length))
 * }
 * ```
 * @group Context
 */
export interface BuzzSignedEvent extends BuzzIdentifiedEvent {
  /** Message text. */
  readonly content: string;
  /** Nostr tags. */
  readonly tags: readonly (readonly string[])[];
}

/**
 * Where a reply to this delivery belongs (NIP-10 thread anchors).
 *
 * @example
 * ```ts
 * import type { BuzzReply } from 'buzz-meta'
 *
 * if (context.source === 'envelope-v1') {
 *   const reply: BuzzReply = context.reply
 *   const tags = [['e', reply.rootEventId, '', 'root'], ['e', reply.replyToEventId, '', 'reply']] // NIP-10
 * }
 * ```
 * @group Context
 */
export interface BuzzReply {
  /** The thread's root event id. */
  readonly rootEventId: string;
  /** The direct parent of the last event, or `null` when it is not a reply. */
  readonly parentEventId: string | null;
  /** The event a reply answers: the last event of the delivery. */
  readonly replyToEventId: string;
}

/**
 * A job event carried by a v1 envelope. `jobId` and `title` are asserted by the host, not proven.
 *
 * @example
 * ```ts
 * import type { BuzzJob } from 'buzz-meta'
 *
 * const job: BuzzJob | undefined = context.source === 'envelope-v1' ? context.job : undefined
 * if (job?.action === 'request') console.error(`job ${job.jobId}`) // the title is the host's word, unproven
 * ```
 * @group Context
 */
export interface BuzzJob {
  /** Correlation key of the job (not a verified reference). */
  readonly jobId: string;
  /** What the job event does. */
  readonly action: 'request' | 'accepted' | 'result' | 'cancel';
  /** Id of the job event. */
  readonly eventId: string;
  /** The job's title (≤ 512 UTF-8 bytes, no control or format characters). */
  readonly title: string;
  /** Due time in Unix seconds, or `null`. */
  readonly dueAt: number | null;
}

/** Fields every context has, whatever its source. */
interface BuzzContextBase {
  /** Where this context came from. */
  readonly source: BuzzSource;
  /** How well it is proven. */
  readonly trust: Trust;
  /** The channel's UUID (lowercase, hyphenated). */
  readonly channelId: string;
  /** The channel's kind. */
  readonly channelType: BuzzChannelType;
  /** The events of this delivery, oldest first; the last one is the one a reply answers. */
  readonly events: readonly BuzzEvent[];
  /** Events of a cancelled turn merged into this one (Steer/Interrupt). */
  readonly cancelledEvents: readonly BuzzEvent[];
  /** Non-fatal findings (unknown keys, oddities), one sentence each. */
  readonly diagnostics: readonly string[];
}

/**
 * A context read from a v1 envelope (`verified` with a pinned key, else `asserted`).
 *
 * @example
 * ```ts
 * import type { BuzzEnvelopeContext } from 'buzz-meta'
 *
 * const describe = (read: BuzzEnvelopeContext): string => `${read.deliveryId}, owner ${read.owner}, ${read.trust}`
 * if (context.source === 'envelope-v1') console.error(describe(context))
 * ```
 * @group Context
 */
export interface BuzzEnvelopeContext extends BuzzContextBase {
  /** Always `'envelope-v1'`. */
  readonly source: 'envelope-v1';
  /** `verified` when checked against the pinned agent key, `asserted` without one. */
  readonly trust: 'verified' | 'asserted';
  /** Signed chat events of this delivery. */
  readonly events: readonly BuzzSignedEvent[];
  /** Always empty for v1 envelopes (they do not carry cancelled events). */
  readonly cancelledEvents: readonly BuzzSignedEvent[];
  /** The host's dedup key: a redelivered batch has the same id. */
  readonly deliveryId: string;
  /** Thread anchors for a reply. */
  readonly reply: BuzzReply;
  /** The channel owner's pubkey. */
  readonly owner: string;
  /** The managed agent's pubkey. */
  readonly agent: string;
  /** Channel members, sorted by pubkey. */
  readonly members: readonly BuzzMember[];
  /** `v1:` + sha256 of the member list: changes whenever membership does. */
  readonly membershipRevision: string;
  /** The job event's summary, when the delivery carries one. */
  readonly job?: BuzzJob;
}

/**
 * A context that was checked against the agent's pinned key.
 *
 * @example
 * ```ts
 * import { readBuzzContext, type BuzzVerifiedContext } from 'buzz-meta'
 *
 * const read = readBuzzContext(params, { agentPubkey, minTrust: 'verified' })
 * const verified: BuzzVerifiedContext | undefined = read.ok ? read.context : undefined // typed by minTrust
 * ```
 * @group Context
 */
export interface BuzzVerifiedContext extends BuzzEnvelopeContext {
  /** Always `'verified'`. */
  readonly trust: 'verified';
}

/**
 * A context read from an unsigned draft `_meta.buzz`, in any dialect hosts send: the original
 * proposal's, block/buzz PR #4751's or PR #7063's (docs/wire-formats.md, "Draft dialects").
 *
 * @example
 * ```ts
 * import type { BuzzDraftContext } from 'buzz-meta'
 *
 * const describe = (draft: BuzzDraftContext): string => `${draft.channelId}: ${String(draft.events.length)} event(s)`
 * if (context.source === 'meta-draft') console.error(describe(context), context.diagnostics)
 * ```
 * @group Context
 */
export interface BuzzDraftContext extends BuzzContextBase {
  /** Always `'meta-draft'`. */
  readonly source: 'meta-draft';
  /** Always `'asserted'`. */
  readonly trust: 'asserted';
  /**
   * `dm`; `channel` for the host's `channel`, `stream` (open) and `private`; `unknown` when the host
   * sent `unknown`, no `channelType`, or a value no host sent before (with a diagnostic).
   */
  readonly channelType: BuzzChannelType;
  /**
   * The host's own `channelType` value as sent (`dm`, `private`, `stream`, `unknown`, `channel`, or
   * a newer short lowercase name), so `private` and `stream` stay apart; absent when the host sent none.
   */
  readonly hostChannelType?: string;
  /** Events with known ids and senders. */
  readonly events: readonly BuzzDraftEvent[];
  /** Cancelled events with known ids and senders. */
  readonly cancelledEvents: readonly BuzzDraftEvent[];
}

/**
 * A context rebuilt from prompt text (legacy hosts). Forgeable: never use it to authorize.
 *
 * @example
 * ```ts
 * import { scrapePromptText, type BuzzScrapedContext } from 'buzz-meta'
 *
 * const scraped = scrapePromptText(params.prompt)
 * const fromText: BuzzScrapedContext | undefined = scraped.ok ? scraped.context : undefined // never authorize on it
 * ```
 * @group Context
 */
export interface BuzzScrapedContext extends BuzzContextBase {
  /** Always `'prompt-text'`. */
  readonly source: 'prompt-text';
  /** Always `'scraped'`. */
  readonly trust: 'scraped';
  /** The channel name the host rendered, if any (untrusted display text). */
  readonly channelName?: string;
  /** Thread anchors, where the text renders an event id (V3 and later). */
  readonly reply?: BuzzReply;
}

/**
 * What `readBuzzContext` returns: one of the three source shapes, discriminated by `source`
 * (and, for `verified`, by `trust`).
 *
 * @example
 * ```ts
 * if (ctx.trust === 'verified') ctx.deliveryId // string: only envelopes verify
 * ```
 * @group Context
 */
export type BuzzContext = BuzzEnvelopeContext | BuzzDraftContext | BuzzScrapedContext;

/**
 * The never-throwing result of `readBuzzContext` and `scrapePromptText`: the context, or the error
 * that stopped the read.
 *
 * @example
 * ```ts
 * import { readBuzzContext, type BuzzReadResult } from 'buzz-meta'
 *
 * const read: BuzzReadResult = readBuzzContext(params, { agentPubkey })
 * if (read.ok) console.error(read.context.trust, read.context.channelId)
 * else console.error(read.error.code, read.error.message) // e.g. payload_hash_mismatch
 * ```
 * @group Reading
 */
export type BuzzReadResult<C extends BuzzContext = BuzzContext> =
  { readonly ok: true; readonly context: C } | { readonly ok: false; readonly error: BuzzMetaError };
