/**
 * Which fields a draft event needs, by dialect: `{id, sender, kind, createdAt}` (the proposal,
 * PR #4751) or `{id, authorPubkey}` (PR #7063, kind and time optional); a `sender` beside an
 * `authorPubkey` must name the same pubkey. Checked after the schema, as a plain loop over the
 * parsed events: as a zod refinement it slowed every read of the compiled schema.
 */
import { type BuzzIssue, pointer } from '../errors.js';
import { BUZZ_PATH } from '../shared/schema-kit.js';
import type { DraftMeta } from './schema.js';

/** The dialect findings of a parsed draft, in event order (empty when every event is of a dialect). */
export function eventDialectIssues(draft: DraftMeta): BuzzIssue[] {
  const issues: BuzzIssue[] = [];
  checkList(draft.events, 'events', issues);
  if (draft.cancelledEvents !== undefined) checkList(draft.cancelledEvents, 'cancelledEvents', issues);
  return issues;
}

type DraftEvent = DraftMeta['events'][number];

function checkList(events: readonly DraftEvent[], list: string, issues: BuzzIssue[]): void {
  let index = -1;
  for (const event of events) {
    index++;
    if (event.authorPubkey !== undefined) {
      if (event.sender !== undefined && event.sender !== event.authorPubkey) {
        issues.push(issue(list, index, 'authorPubkey', 'sender and authorPubkey name different pubkeys'));
      }
    } else if (event.sender === undefined) {
      issues.push(
        issue(
          list,
          index,
          'sender',
          'an event needs sender, kind and createdAt (the proposal, PR #4751) or authorPubkey (PR #7063); it has neither sender nor authorPubkey',
        ),
      );
    } else {
      if (event.kind === undefined) issues.push(lacks(list, index, 'kind'));
      if (event.createdAt === undefined) issues.push(lacks(list, index, 'createdAt'));
    }
  }
}

function lacks(list: string, index: number, field: 'kind' | 'createdAt'): BuzzIssue {
  return issue(
    list,
    index,
    field,
    `an event with sender and no authorPubkey (the proposal, PR #4751) carries id, sender, kind and createdAt; it lacks ${field}`,
  );
}

function issue(list: string, index: number, field: string, message: string): BuzzIssue {
  return { code: 'invalid_draft', path: pointer([...BUZZ_PATH, list, index, field]), message };
}
