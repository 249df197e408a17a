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

const cache = new Map<string, DraftSchema>();

/** The draft schema for these limits, built once per distinct set of limits. */
export function draftSchema(limits: BuzzLimits = DEFAULT_LIMITS): DraftSchema {
  const key = limitsKey(limits);
  let schema = cache.get(key);
  if (schema === undefined) {
    schema = buildDraftSchema(limits);
    if (cache.size < 16) cache.set(key, schema);
  }
  return schema;
}

const parsers = new WeakMap<DraftSchema, DraftSchema>();
/**
 * The last limits object read with, and its parser, so repeated reads skip building the key. Sound
 * because the reader only passes `resolveLimits` output, which is frozen (DEFAULT_LIMITS included).
 */
let last: { readonly limits: BuzzLimits; readonly parser: DraftSchema } | undefined;

/**
 * The draft schema for reading: {@link draftSchema} compiled with `z.compile`, with the same
 * verdicts, issues and output (see `compiledForReading`).
 */
export function draftParser(limits: BuzzLimits = DEFAULT_LIMITS): DraftSchema {
  if (last?.limits === limits) return last.parser;
  const schema = draftSchema(limits);
  let parser = parsers.get(schema);
  if (parser === undefined) {
    parser = compiledForReading(schema);
    parsers.set(schema, parser);
  }
  last = { limits, parser };
  return parser;
}
