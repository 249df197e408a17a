/**
 * One event block of the eras that render `Event ID:` (V3, V4, V5): its head is fixed, its
 * content is verbatim and may imitate anything, and it ends at a `Tags:` line (plus an optional
 * `Parsed:` line) followed by the structure the section expects next. Every such line is only a
 * candidate end (section-ends.ts finds them). The host's own end is always among them; the one
 * whose reading hashes to the rendered id is the real one (a forged end cannot produce it without
 * a sha256 preimage), and none hashing fails the read. The id is checked even when a block has a
 * single candidate end: it covers every field the block renders except the channel and the label,
 * and the channel is checked against the event's `h` tag.
 */
import type { RenderedTags } from './fields.js';
import { contentOf, type EventHead, readHead, type SeenFields, startsRichBlock } from './head.js';
import { type HashBudget, IdChecker } from './event-id.js';
import type { LineText } from './line-text.js';
import { asUndecided, fail, type Failure, isFailure, type Mutable, type ScrapedEvent, undecided } from './outcome.js';
import type { Continuation, EndCursor, BlockEndCandidates } from './section-ends.js';

/** A candidate whose tags parse. */
interface ParsedEnd {
  readonly tagsLine: number;
  readonly tags: RenderedTags;
  readonly continuation: Continuation;
}

/** The structure around one block, supplied by its section. */
interface ChunkFrame {
  readonly text: LineText;
  readonly budget: HashBudget;
  /** The candidate ends of the whole section. */
  readonly ends: BlockEndCandidates;
  /** The separator number that may follow this block, or `undefined` if none may. */
  readonly nextSeparator: number | undefined;
  /** Whether this block may be the last of its section. */
  readonly mayEnd: boolean;
  /** The channel and senders read in the section so far. */
  readonly seen: SeenFields;
}

/** A block read whole: the event and what follows it. */
interface ChunkRead {
  readonly event: ScrapedEvent;
  readonly continuation: Continuation;
}

/**
 * Reads the rich event block whose first field line is `at`. A block that starts as the host
 * starts every block (see {@link startsRichBlock}) and then fails is left undecided: it may be a
 * real block that a name with a newline broke, so a quoted reading elsewhere must not win over it.
 */
export function readRichChunk(frame: ChunkFrame, at: number): ChunkRead | Failure {
  const read = readBlock(frame, at);
  return isFailure(read) && startsRichBlock(frame.text, at) ? asUndecided(read) : read;
}

function readBlock(frame: ChunkFrame, at: number): ChunkRead | Failure {
  const { text, ends } = frame;
  const head = readHead(text, at, 'rich', frame.seen);
  if ('problem' in head) return fail('invalid', head.problem);
  const checker = new IdChecker(
    text,
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
  let search = searchEnds(frame, head, checker, ends.after(head.contentLine, frame.nextSeparator, frame.mayEnd));
  if (search.parsed === 0) {
    // The header may overstate the count: with no separator where the next block would start,
    // this block is the last one. (Only then: the real end is among the candidates of a true frame.)
    // A separator there with no block start after it is no such case: the text is broken.
    if (frame.nextSeparator !== undefined && ends.separatorFollows(head.contentLine, frame.nextSeparator)) {
      return fail('invalid', 'an event separator is not followed by an event block');
    }
    search = searchEnds(frame, head, checker, ends.after(head.contentLine, undefined, true));
  }
  if (search.end !== undefined) return chunkRead(text, head, search.end);
  if (search.failure !== undefined) return search.failure;
  if (search.parsed === 0) return fail('invalid', 'an event block has no Tags line where its section expects one');
  if (search.parsed === 1) return fail('invalid', 'an event block does not hash to its Event ID');
  return fail('ambiguous', 'an event block has several possible ends and none matches its event id');
}

/** What a search found: the end, or how many candidates parsed and why it stopped, if not for want of candidates. */
interface Search {
  readonly end?: ParsedEnd;
  readonly parsed: number;
  readonly failure?: Failure;
}

/**
 * The first candidate, in line order, whose tags parse and whose reading hashes to the rendered
 * id (a forged end cannot produce it without a sha256 preimage). The real end is always a
 * candidate, and the ends before it lie in the block's own content: a real block stops there, so
 * blocks share no work. An end followed by a block whose head does not read is not hashed: were
 * it the host's, no other end could hash to the id, and the read fails. Past
 * {@link MAX_ENDS_PER_BLOCK} candidates the search gives up, undecided.
 */
function searchEnds(frame: ChunkFrame, head: EventHead, checker: IdChecker, cursor: EndCursor): Search {
  const { text, ends, seen } = frame;
  let parsed = 0;
  for (let candidate = cursor.next(); candidate !== undefined; candidate = cursor.next()) {
    const { tagsLine, continuation } = candidate;
    const tags = ends.tagsAt(tagsLine);
    if (tags === undefined) continue;
    if (++parsed > MAX_ENDS_PER_BLOCK) {
      return { parsed, failure: undecided('ambiguous', 'an event block has more possible ends than are checked') };
    }
    if (continuation.type === 'separator' && 'problem' in readHead(text, continuation.block, 'rich', seen)) continue;
    const matches = checker.matches(tags, tagsLine);
    if (matches === undefined) {
      return {
        parsed,
        failure: undecided('ambiguous', 'too many possible event boundaries to check against their event ids'),
      };
    }
    if (matches) return { end: { tagsLine, tags, continuation }, parsed };
  }
  return { parsed };
}

/**
 * Candidate ends (whose tags parse) one block may have: a real block has its own and those its
 * message quotes. More is text no host renders (a message quoting a large log might): the read
 * fails as ambiguous instead of reading every forged block head.
 */
const MAX_ENDS_PER_BLOCK = 64;

function chunkRead(text: LineText, head: EventHead, end: ParsedEnd): ChunkRead | Failure {
  // Chat events carry `["h", channel]`; the Channel line is not hashed, so this is what ties it to the event.
  for (const tag of end.tags) {
    if (tag[0] === 'h' && tag.length >= 2 && tag[1] !== head.channel.id) {
      return fail('invalid', 'an event block names another channel than its h tag');
    }
  }
  const event: Mutable<ScrapedEvent> = {
    id: head.id,
    sender: head.sender.pubkey,
    kind: head.kind,
    createdAt: head.createdAt,
    content: contentOf(text, head, end.tagsLine),
    tags: end.tags,
    channel: head.channel,
  };
  // Assigned rather than spread in: this runs once per event of every prompt.
  if (head.sender.label !== undefined) event.senderLabel = head.sender.label;
  return { event, continuation: end.continuation };
}
