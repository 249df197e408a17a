/**
 * Reads the draft shape into a {@link BuzzDraftContext} (`trust: 'asserted'`).
 */
import type { BuzzDraftContext, BuzzIdentifiedEvent } from '../context.js';
import type { BuzzMetaError } from '../errors.js';
import type { BuzzLimits } from '../limits.js';
import { checkInputBounds } from '../input-bounds.js';
import { BUZZ_PATH, checkArrayLength, parseWith, plusZero, reportUnknownKeys } from '../schema-kit.js';
import { DRAFT_KEYS, type DraftMeta, draftParser } from './schema.js';

/** Checks and normalizes a draft-shaped `_meta.buzz`. */
export function readDraft(
  raw: unknown,
  limits: BuzzLimits,
): { ok: true; context: BuzzDraftContext } | { ok: false; error: BuzzMetaError } {
  const tooLong =
    checkArrayLength(raw, 'events', limits.maxEvents, BUZZ_PATH, 'maxEvents') ??
    checkArrayLength(raw, 'cancelledEvents', limits.maxEvents, BUZZ_PATH, 'maxEvents') ??
    checkInputBounds(raw, limits);
  if (tooLong !== undefined) return { ok: false, error: tooLong };
  const parsed = parseWith(draftParser(limits), raw, 'invalid_draft');
  if (!parsed.ok) return parsed;
  const draft = parsed.value;
  const diagnostics: string[] = [];
  const root = raw as Record<string, unknown>;
  reportUnknownKeys(root, DRAFT_KEYS.root, BUZZ_PATH, diagnostics);
  for (const list of ['events', 'cancelledEvents'] as const) {
    const items = root[list];
    if (!Array.isArray(items)) continue;
    items.forEach((event: unknown, index) => {
      reportUnknownKeys(event, DRAFT_KEYS.event, [...BUZZ_PATH, list, index], diagnostics);
    });
  }
  return {
    ok: true,
    context: {
      source: 'meta-draft',
      trust: 'asserted',
      channelId: draft.channelId,
      channelType: draft.channelType,
      events: draft.events.map(toEvent),
      cancelledEvents: (draft.cancelledEvents ?? []).map(toEvent),
      diagnostics,
    },
  };
}

function toEvent(event: DraftMeta['events'][number]): BuzzIdentifiedEvent {
  return { id: event.id, sender: event.sender, kind: plusZero(event.kind), createdAt: plusZero(event.createdAt) };
}
