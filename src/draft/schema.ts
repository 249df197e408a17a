/**
 * The unsigned draft shape from the original `_meta.buzz` proposal: what the transport asserts,
 * not what anyone proved. Unknown keys are tolerated (forward compatibility) and never copied.
 */
import * as z from 'zod';
import { DEFAULT_LIMITS, type BuzzLimits } from '../limits.js';
import { hex64, limitedSchemas, nostrKind, unixSeconds, uuid } from '../schema-kit.js';

/** Builds the draft schema for the given limits. */
export function buildDraftSchema(limits: BuzzLimits) {
  const event = z.object({ id: hex64, sender: hex64, kind: nostrKind, createdAt: unixSeconds });
  return z
    .object({
      channelId: uuid,
      channelType: z.enum(['channel', 'dm']),
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
        'Unsigned channel and sender facts from the original _meta.buzz proposal (no version key). ' +
        'Unknown keys may appear and are ignored by readers.',
    });
}

function tooMany(limits: BuzzLimits): string {
  return `more events than limits.maxEvents (${String(limits.maxEvents)})`;
}

/** The draft as the schema types it. */
export type DraftMeta = z.infer<ReturnType<typeof buildDraftSchema>>;

/** Keys the draft defines, for unknown-key diagnostics. */
export const DRAFT_KEYS = {
  root: new Set(['channelId', 'channelType', 'events', 'cancelledEvents']),
  event: new Set(['id', 'sender', 'kind', 'createdAt']),
} as const;

const schemas = limitedSchemas(buildDraftSchema);

/** The draft schema for these limits (the schema of record), built once per distinct set of limits. */
export function draftSchema(limits: BuzzLimits = DEFAULT_LIMITS): ReturnType<typeof buildDraftSchema> {
  return schemas.schema(limits);
}

/** The draft schema for reading: compiled with `z.compile` where available, same verdicts and issues. */
export function draftParser(limits: BuzzLimits = DEFAULT_LIMITS): ReturnType<typeof buildDraftSchema> {
  return schemas.parser(limits);
}
