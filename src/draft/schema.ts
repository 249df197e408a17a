/**
 * The unsigned draft `_meta.buzz`, in every dialect hosts send: the original proposal's
 * (`channelType` `channel`/`dm`; events `{id, sender, kind, createdAt}`), block/buzz PR #4751's
 * (the same events; `channelType` the host's own `dm`/`private`/`stream`/`unknown`, or omitted) and
 * PR #7063's (events `{id, authorPubkey}`, no kind, time or channel type). What the transport
 * asserts, not what anyone proved. Ids, pubkeys and the channel UUID are as strict in every dialect;
 * `channelType` is descriptive, so any string reads (channel-type.ts maps it). Which fields an
 * event needs depends on its dialect (event-dialect.ts checks it after the schema). Unknown keys are
 * tolerated (forward compatibility) and never copied.
 */
import * as z from 'zod';
import { DEFAULT_LIMITS, type BuzzLimits } from '../limits.js';
import { hex64, limitedSchemas, nostrKind, unixSeconds, uuid } from '../shared/schema-kit.js';

/** Builds the draft schema for the given limits. */
function buildDraftSchema(limits: BuzzLimits) {
  const event = z
    .object({
      id: hex64,
      sender: hex64.optional(),
      authorPubkey: hex64.optional(),
      kind: nostrKind.optional(),
      createdAt: unixSeconds.optional(),
    })
    .meta({
      anyOf: [{ required: ['sender', 'kind', 'createdAt'] }, { required: ['authorPubkey'] }],
      description:
        'An event of the proposal or PR #4751 ({id, sender, kind, createdAt}) or of PR #7063 ({id, authorPubkey}, ' +
        'kind and createdAt optional); when both sender and authorPubkey are present they must be equal.',
    });
  return z
    .object({
      channelId: uuid,
      channelType: z.string().optional(),
      events: z.array(event).max(limits.maxEvents, { error: tooMany(limits) }),
      cancelledEvents: z
        .array(event)
        .max(limits.maxEvents, { error: tooMany(limits) })
        .optional(),
    })
    .meta({
      id: 'BuzzMetaDraft',
      title: 'Buzz _meta.buzz draft shape',
      description:
        'Unsigned channel and sender facts (no version key), in the dialect of the original _meta.buzz proposal, ' +
        'block/buzz PR #4751 (channelType dm/private/stream/unknown, or absent) or PR #7063 (events {id, authorPubkey}). ' +
        'Unknown keys may appear and are ignored by readers; an unknown channelType string reads as unknown.',
    });
}

function tooMany(limits: BuzzLimits): string {
  return `more events than limits.maxEvents (${String(limits.maxEvents)})`;
}

/** The draft as the schema types it. */
export type DraftMeta = z.infer<ReturnType<typeof buildDraftSchema>>;

/** Keys the draft dialects define, for unknown-key diagnostics. */
export const DRAFT_KEYS = {
  root: new Set(['channelId', 'channelType', 'events', 'cancelledEvents']),
  event: new Set(['id', 'sender', 'authorPubkey', 'kind', 'createdAt']),
} as const;

/** Every key name the draft dialects define: the names an error pointer into a draft may show. */
export const DRAFT_KEY_NAMES: ReadonlySet<string> = new Set(Object.values(DRAFT_KEYS).flatMap((keys) => [...keys]));

const schemas = limitedSchemas(buildDraftSchema);

/** The draft schema for these limits (the schema of record), built once per distinct set of limits. */
export function draftSchema(limits: BuzzLimits = DEFAULT_LIMITS): ReturnType<typeof buildDraftSchema> {
  return schemas.schema(limits);
}

/** The draft schema for reading: compiled with `z.compile` where available, same verdicts and issues. */
export function draftParser(limits: BuzzLimits = DEFAULT_LIMITS): ReturnType<typeof buildDraftSchema> {
  return schemas.parser(limits);
}
