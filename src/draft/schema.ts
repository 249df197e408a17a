/**
 * The unsigned draft shape from the original `_meta.buzz` proposal: what the transport asserts,
 * not what anyone proved. Unknown keys are tolerated (forward compatibility) and never copied.
 */
import * as z from 'zod';
import { DEFAULT_LIMITS, type BuzzLimits, limitsKey } from '../limits.js';
import { compiledForReading, hex64, nostrKind, unixSeconds, uuid } from '../schema-kit.js';

/** Builds the draft schema for the given limits. */
export function buildDraftSchema(limits: BuzzLimits) {
  const event = z.object({ id: hex64, sender: hex64, kind: nostrKind, createdAt: unixSeconds });
  return z
    .object({
      channelId: uuid,
      channelType: z.enum(['channel', 'dm']),
      events: z.array(event).max(limits.maxEvents),
      cancelledEvents: z.array(event).max(limits.maxEvents).optional(),
    })
    .meta({
      id: 'BuzzMetaDraft',
      title: 'Buzz _meta.buzz draft shape',
      description:
        'Unsigned channel and sender facts from the original _meta.buzz proposal (no version key). ' +
        'Unknown keys may appear and are ignored by readers.',
    });
}

/** The draft as the schema types it. */
export type DraftMeta = z.infer<ReturnType<typeof buildDraftSchema>>;

/** Keys the draft defines, for unknown-key diagnostics. */
export const DRAFT_KEYS = {
  root: new Set(['channelId', 'channelType', 'events', 'cancelledEvents']),
  event: new Set(['id', 'sender', 'kind', 'createdAt']),
} as const;

type DraftSchema = ReturnType<typeof buildDraftSchema>;

interface Built {
  readonly schema: DraftSchema;
  parser: DraftSchema | undefined;
}

const cache = new Map<string, Built>();
let defaults: Built | undefined;

function built(limits: BuzzLimits): Built {
  // `resolveLimits` hands back DEFAULT_LIMITS itself when nothing is overridden: no key to build.
  if (limits === DEFAULT_LIMITS) return (defaults ??= { schema: buildDraftSchema(limits), parser: undefined });
  const key = limitsKey(limits);
  let entry = cache.get(key);
  if (entry === undefined) {
    entry = { schema: buildDraftSchema(limits), parser: undefined };
    if (cache.size < 16) cache.set(key, entry);
  }
  return entry;
}

/** The draft schema for these limits, built once per distinct set of limits. */
export function draftSchema(limits: BuzzLimits = DEFAULT_LIMITS): DraftSchema {
  return built(limits).schema;
}

/**
 * The draft schema for reading: {@link draftSchema} compiled with `z.compile`, with the same
 * verdicts, issues and output (see `compiledForReading`).
 */
export function draftParser(limits: BuzzLimits = DEFAULT_LIMITS): DraftSchema {
  const entry = built(limits);
  return (entry.parser ??= compiledForReading(entry.schema));
}
