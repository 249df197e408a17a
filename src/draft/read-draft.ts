/**
 * Reads a draft `_meta.buzz` (any dialect, see schema.ts) into a {@link BuzzDraftContext}
 * (`trust: 'asserted'`).
 */
import type { BuzzDraftContext, BuzzDraftEvent } from '../context.js';
import { BuzzMetaError, pointer, type Result } from '../errors.js';
import type { BuzzLimits } from '../limits.js';
import { checkInputBounds } from '../shared/input-bounds.js';
import { BUZZ_PATH, checkArrayLength, parseWith, plusZero, reportUnknownKeys } from '../shared/schema-kit.js';
import { readChannelType } from './channel-type.js';
import { eventDialectIssues } from './event-dialect.js';
import { DRAFT_KEYS, DRAFT_KEY_NAMES, type DraftMeta, draftParser } from './schema.js';

/** What every draft dialect carries at its root. */
const ROOT_FIELDS = ['channelId', 'events'] as const;

/** Checks and normalizes a draft-shaped `_meta.buzz`. */
export function readDraft(raw: unknown, limits: BuzzLimits): Result<BuzzDraftContext> {
  const tooLong =
    missingRootFields(raw) ??
    checkArrayLength(raw, 'events', limits.maxEvents, BUZZ_PATH, 'maxEvents') ??
    checkArrayLength(raw, 'cancelledEvents', limits.maxEvents, BUZZ_PATH, 'maxEvents') ??
    checkInputBounds(raw, limits, DRAFT_KEY_NAMES);
  if (tooLong !== undefined) return { ok: false, error: tooLong };
  const parsed = parseWith(draftParser(limits), raw, 'invalid_draft');
  if (!parsed.ok) return parsed;
  const draft = parsed.value;
  const [first, ...rest] = eventDialectIssues(draft);
  if (first !== undefined) return { ok: false, error: new BuzzMetaError(first, ...rest) };
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
  const type = readChannelType(draft.channelType);
  if (type.diagnostic !== undefined) diagnostics.push(type.diagnostic);
  return {
    ok: true,
    value: {
      source: 'meta-draft',
      trust: 'asserted',
      channelId: draft.channelId,
      channelType: type.channelType,
      ...(type.hostChannelType === undefined ? {} : { hostChannelType: type.hostChannelType }),
      events: draft.events.map(toEvent),
      cancelledEvents: (draft.cancelledEvents ?? []).map(toEvent),
      diagnostics,
    },
  };
}

/**
 * A versionless `_meta.buzz` without `channelId` or `events` matches no dialect: one message that
 * names every missing field, at the first one's path.
 */
function missingRootFields(raw: unknown): BuzzMetaError | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const missing = ROOT_FIELDS.filter((field) => !Object.hasOwn(raw, field));
  const [first] = missing;
  if (first === undefined) return undefined;
  return BuzzMetaError.of(
    'invalid_draft',
    pointer([...BUZZ_PATH, first]),
    `_meta.buzz has no "version", so it is read as a draft, and it lacks ${missing.join(' and ')}: ` +
      'every draft dialect (the proposal, PR #4751, PR #7063) carries channelId and events',
  );
}

function toEvent(event: DraftMeta['events'][number]): BuzzDraftEvent {
  // eventDialectIssues guarantees a sender or an authorPubkey, and that both agree when both are present.
  const sender = event.sender ?? event.authorPubkey ?? '';
  return {
    id: event.id,
    sender,
    kind: event.kind === undefined ? null : plusZero(event.kind),
    createdAt: event.createdAt === undefined ? null : plusZero(event.createdAt),
  };
}
