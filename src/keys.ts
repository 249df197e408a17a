/**
 * Stable string keys for memory partitions, rate limits and per-sender state, in the formats
 * muxi's acp-bridge already uses: `<prefix>:channel:<uuid>` and `<prefix>:pubkey:<64 hex>`.
 * A key says who the context names, not how well that is proven: check `ctx.trust` first.
 */
import type { BuzzContext } from './context.js';
import { BuzzMetaError } from './errors.js';
import { markedAnchors } from './shared/nip10.js';

/**
 * Options shared by every key helper.
 *
 * @example
 * ```ts
 * import { channelKey, senderKey, type KeyOptions } from 'buzz-meta'
 *
 * const options: KeyOptions = { prefix: 'muxi' } // 'muxi:channel:<uuid>' instead of 'buzz:channel:<uuid>'
 * const keys = [channelKey(context, options), senderKey(context, options)]
 * ```
 * @group Keys
 */
export interface KeyOptions {
  /** First segment of the key (default `'buzz'`): letters, digits, `_ . : -`, at most 64. */
  readonly prefix?: string;
}

/**
 * Options of {@link partitionId}.
 *
 * @example
 * ```ts
 * import { partitionId, type PartitionOptions } from 'buzz-meta'
 *
 * const options: PartitionOptions = { unit: 'sender', prefix: 'my-agent' }
 * const { id } = partitionId(context, options) // 'my-agent:pubkey:<hex>'
 * ```
 * @group Keys
 */
export interface PartitionOptions extends KeyOptions {
  /** Partition per channel, or per (last) sender. */
  readonly unit: 'channel' | 'sender';
}

/**
 * A partition id and what is worth knowing about how it was chosen.
 *
 * @example
 * ```ts
 * import { partitionId, type Partition } from 'buzz-meta'
 *
 * const partition: Partition = partitionId(context, { unit: 'sender' })
 * memory.partition(partition.id)
 * if (partition.diagnostics.length > 0) console.error(partition.diagnostics) // several senders in one delivery
 * ```
 * @group Keys
 */
export interface Partition {
  /** The key, e.g. `buzz:pubkey:3bf0…`. */
  readonly id: string;
  /** Non-fatal findings, e.g. that several people wrote in this batch. */
  readonly diagnostics: readonly string[];
}

const PREFIX_PATTERN = /^[\w.:-]{1,64}$/;

/**
 * The prefix of `options` (default `'buzz'`), checked.
 * @throws BuzzMetaError `invalid_option` for a prefix that is not 1–64 letters, digits, `_ . : -`.
 */
export function prefixOf(options: KeyOptions | undefined): string {
  const prefix = options?.prefix ?? 'buzz';
  if (typeof prefix !== 'string' || !PREFIX_PATTERN.test(prefix)) {
    throw BuzzMetaError.of('invalid_option', '/prefix', 'prefix must be 1–64 letters, digits, "_", ".", ":" or "-"');
  }
  return prefix;
}

/**
 * The channel's key: `<prefix>:channel:<uuid>`.
 *
 * @example
 * ```ts
 * channelKey(ctx) // 'buzz:channel:7f3a2b10-…'
 * ```
 * @group Keys
 */
export function channelKey(ctx: BuzzContext, options?: KeyOptions): string {
  return `${prefixOf(options)}:channel:${ctx.channelId}`;
}

/**
 * The sender's key: `<prefix>:pubkey:<hex>` of the **last** event's author, the one Buzz anchors
 * replies and threads on.
 *
 * @example
 * ```ts
 * senderKey(ctx, { prefix: 'muxi' }) // 'muxi:pubkey:3bf0c63f…'
 * ```
 * @throws BuzzMetaError `no_sender` when the delivery has no events.
 * @group Keys
 */
export function senderKey(ctx: BuzzContext, options?: KeyOptions): string {
  const last = ctx.events[ctx.events.length - 1];
  if (last === undefined) throw BuzzMetaError.of('no_sender', '/events', 'the delivery has no events, so no sender');
  return `${prefixOf(options)}:pubkey:${last.sender}`;
}

/**
 * The keys of every distinct sender of the delivery's events, in first-seen order.
 *
 * @example
 * ```ts
 * senderKeys(ctx) // ['buzz:pubkey:aa…', 'buzz:pubkey:bb…']
 * ```
 * @group Keys
 */
export function senderKeys(ctx: BuzzContext, options?: KeyOptions): string[] {
  const prefix = prefixOf(options);
  const seen = new Set<string>();
  for (const event of ctx.events) seen.add(event.sender);
  return [...seen].map((sender) => `${prefix}:pubkey:${sender}`);
}

/**
 * The thread's key, `<prefix>:thread:<root event id>`, or `null` when the source does not say
 * which thread the delivery belongs to. Follows `reply.rootEventId` where known, else the last
 * event's NIP-10 `e` tags read as buzz-acp's `thread_anchors` reads them (last root marker, then last
 * reply marker, ids lowercased, else the event starts its own thread; `null` for an `e` tag without
 * a marker or with a malformed id, which upstream refuses).
 *
 * @example
 * ```ts
 * threadKey(ctx) // 'buzz:thread:9c1e…' or null
 * ```
 * @group Keys
 */
export function threadKey(ctx: BuzzContext, options?: KeyOptions): string | null {
  const prefix = prefixOf(options);
  const root = threadRoot(ctx);
  return root === null ? null : `${prefix}:thread:${root}`;
}

function threadRoot(ctx: BuzzContext): string | null {
  if (ctx.source === 'envelope-v1') return ctx.reply.rootEventId;
  // Scraped text: the anchors the host rendered, where it rendered them.
  if (ctx.source === 'prompt-text' && ctx.reply !== undefined) return ctx.reply.rootEventId;
  const last = ctx.events[ctx.events.length - 1];
  if (last?.tags === undefined) return null;
  const anchors = markedAnchors(last.tags);
  // An e tag upstream would refuse names no thread reliably: no key rather than a guess.
  if (!anchors.ok) return null;
  return anchors.value.root ?? anchors.value.parent ?? last.id;
}

/**
 * The memory-partition id for a delivery, per channel or per sender, with diagnostics. A batch
 * with several distinct senders is still attributed to the last one, and says so.
 *
 * @example
 * ```ts
 * const { id, diagnostics } = partitionId(ctx, { unit: 'sender', prefix: 'muxi' })
 * ```
 * @group Keys
 */
export function partitionId(ctx: BuzzContext, options: PartitionOptions): Partition {
  // Widened to string: JavaScript callers can pass anything, and deserve a clear error.
  const unit: string = options.unit;
  if (unit === 'channel') return { id: channelKey(ctx, options), diagnostics: [] };
  if (unit !== 'sender') {
    throw BuzzMetaError.of('invalid_option', '/unit', 'unit must be "channel" or "sender"');
  }
  const id = senderKey(ctx, options);
  const distinct = new Set(ctx.events.map((event) => event.sender)).size;
  const diagnostics =
    distinct > 1
      ? [`${String(distinct)} distinct senders in this delivery; attributed to the last event's sender`]
      : [];
  return { id, diagnostics };
}
