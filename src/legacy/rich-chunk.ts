/**
 * One event block of the eras that render `Event ID:` (V3, V4, V5): its head is fixed, its
 * content is verbatim and may imitate anything, and it ends at a `Tags:` line (plus an optional
 * `Parsed:` line) followed by the structure the section expects next. Every such line is only a
 * candidate end; the one whose reading hashes to the rendered id is the real one. Only when no
 * candidate hashes (a host quirk) and exactly one candidate exists is it taken, with a diagnostic.
 */
import { fieldValue, parseTags, type RenderedTags } from './fields.js';
import { contentUpTo, type EventHead, readHead } from './head.js';
import { type HashBudget, IdChecker } from './event-id.js';
import { fail, type Failure, type ScrapedEvent } from './outcome.js';

/** What may follow the end of a block: the next separator (with its number) or the section's end. */
export type Continuation =
  | { readonly type: 'separator'; readonly number: number; readonly line: number }
  | { readonly type: 'end'; readonly next: number };

/** The structure around one block, supplied by its section. */
export interface ChunkFrame {
  readonly lines: readonly string[];
  readonly budget: HashBudget;
  /** What follows a block whose last line is `after - 1`, if it is structure at all. */
  readonly continuation: (after: number) => Continuation | undefined;
  /** The separator number that may follow this block, or `undefined` if none may. */
  readonly nextSeparator: number | undefined;
  /** Whether this block may be the last of its section. */
  readonly mayEnd: boolean;
}

/** A block read whole: the event and what follows it. */
export interface ChunkRead {
  readonly event: ScrapedEvent;
  readonly continuation: Continuation;
  /** Set when the id could not be confirmed and the only structural reading was taken. */
  readonly unconfirmed: boolean;
}

interface Candidate {
  readonly tagsLine: number;
  readonly tags: RenderedTags;
  readonly continuation: Continuation;
}

/** Reads the rich event block whose first field line is `at`. */
export function readRichChunk(frame: ChunkFrame, at: number): ChunkRead | Failure {
  const head = readHead(frame.lines, at, 'rich');
  if ('problem' in head) return fail('invalid', head.problem);
  const lines = frame.lines;
  const checker = new IdChecker(
    lines,
    {
      id: head.id ?? '',
      pubkey: head.sender.pubkey,
      createdAt: head.createdAt,
      kind: head.kind ?? 0,
      firstContent: head.firstContent,
      contentLine: head.contentLine,
    },
    frame.budget,
  );
  let only: Candidate | undefined;
  let count = 0;
  for (let t = head.contentLine + 1; t < lines.length; t++) {
    const candidate = candidateAt(frame, t);
    if (candidate === undefined) continue;
    count++;
    only = candidate;
    const matches = checker.matches(candidate.tags, candidate.tagsLine);
    if (matches === undefined) {
      return fail('ambiguous', 'too many possible event boundaries to check against their event ids');
    }
    if (matches) {
      const content = contentUpTo(lines, head, candidate.tagsLine);
      return {
        event: toEvent(head, content, candidate.tags),
        continuation: candidate.continuation,
        unconfirmed: false,
      };
    }
  }
  if (count !== 1 || only === undefined) {
    return count === 0
      ? fail('invalid', 'an event block has no Tags line where its section expects one')
      : fail('ambiguous', 'an event block has several possible ends and none matches its event id');
  }
  return {
    event: toEvent(head, contentUpTo(lines, head, only.tagsLine), only.tags),
    continuation: only.continuation,
    unconfirmed: true,
  };
}

function candidateAt(frame: ChunkFrame, t: number): Candidate | undefined {
  const tagsText = fieldValue(frame.lines[t], 'Tags: ');
  if (!tagsText?.startsWith('[')) return undefined;
  const after = frame.lines[t + 1]?.startsWith('Parsed: ') === true ? t + 2 : t + 1;
  const continuation = frame.continuation(after);
  if (continuation === undefined) return undefined;
  if (continuation.type === 'separator' ? continuation.number !== frame.nextSeparator : !frame.mayEnd) {
    return undefined;
  }
  const tags = parseTags(tagsText);
  return tags === undefined ? undefined : { tagsLine: t, tags, continuation };
}

function toEvent(head: EventHead, content: string, tags: RenderedTags): ScrapedEvent {
  const label = head.sender.label;
  return {
    id: head.id,
    sender: head.sender.pubkey,
    ...(label === undefined ? {} : { senderLabel: label }),
    kind: head.kind,
    createdAt: head.createdAt,
    content,
    tags,
    channel: head.channel,
  };
}
