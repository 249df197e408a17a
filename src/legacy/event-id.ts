/**
 * Recomputing the NIP-01 id of a rendered event. Every hashed field is rendered
 * verbatim (content exactly, tags as their JSON), so the id the host printed matches only the
 * reading whose field boundaries are the real ones: a forged separator or `Tags:` line inside a
 * message cannot produce it without a sha256 preimage.
 *
 * The id is `sha256([0,pubkey,created_at,kind,tags,content])` (nostr-tools' `serializeEvent`).
 * Tags come before content, so candidate ends with the same tags share one running hash fed
 * line by line: many forged ends that repeat their tags cost one pass. All hashing is charged to
 * a {@link HashBudget}, so input full of forged boundaries costs a bounded multiple of its size
 * and then fails, instead of hashing every prefix.
 */
import type { Hash } from 'node:crypto';
import { nodeCrypto } from '../shared/deferred.js';
import type { RenderedTags } from './fields.js';
import type { LineText } from './line-text.js';

/**
 * What one id check is charged beyond the characters it hashes: less than the text of the
 * smallest rich block, so a real batch stays within its budget, while forged ends cost their
 * share of it however short they are.
 */
const CHECK_COST = 256;

/** Characters that may still be hashed during one scrape (each id check also costs {@link CHECK_COST}). */
export class HashBudget {
  private left: number;

  /** A budget of `characters` serialized characters. */
  constructor(characters: number) {
    this.left = characters;
  }

  /** Takes `characters` from the budget; false (and nothing taken) when not enough is left. */
  take(characters: number): boolean {
    if (characters > this.left) return false;
    this.left -= characters;
    return true;
  }
}

/** The head fields of a rendered event that its id commits to. */
interface HashedHead {
  readonly id: string;
  readonly pubkey: string;
  readonly createdAt: number;
  readonly kind: number;
  /** The first content line (after `Content: `). */
  readonly firstContent: string;
  /** Offset of the `Content:` line; later content lines follow it. */
  readonly contentLine: number;
}

/**
 * A JSON string literal's inside: how JSON.stringify escapes each character of `text`. (Taken
 * from JSON.stringify itself: on large text its own scan is faster than a regex check for
 * characters to escape followed by a replace of the newlines.)
 */
function escaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** Checks candidate ends of one event block against its id, sharing work between candidates. */
export class IdChecker {
  private readonly streams = new Map<string, { hash: Hash; fed: number }>();

  /** Checks one event block's candidate ends; `text` holds the block. */
  constructor(
    private readonly text: LineText,
    private readonly head: HashedHead,
    private readonly budget: HashBudget,
  ) {}

  /**
   * Whether the id is the hash of this head with `tags` and the content lines before
   * `tagsLine`; `undefined` when the budget ran out.
   */
  matches(tags: RenderedTags, tagsLine: number): boolean | undefined {
    // Each check costs about as much as hashing a few hundred characters, whatever it hashes.
    if (!this.budget.take(CHECK_COST)) return undefined;
    const tagsJson = JSON.stringify(tags);
    let stream = this.streams.get(tagsJson);
    if (stream === undefined) {
      const head = this.head;
      const prefix = `[0,${JSON.stringify(head.pubkey)},${head.createdAt},${head.kind},${tagsJson},"${escaped(head.firstContent)}`;
      if (!this.budget.take(prefix.length)) return undefined;
      stream = { hash: nodeCrypto().createHash('sha256').update(prefix), fed: this.text.next(head.contentLine) };
      this.streams.set(tagsJson, stream);
    }
    if (stream.fed < tagsLine) {
      // Escaping is per character, so the lines since the last candidate go in as one piece.
      const more = this.text.slice(stream.fed, tagsLine);
      if (!this.budget.take(more.length + 1)) return undefined;
      stream.hash.update(`\\n${escaped(more)}`);
      stream.fed = tagsLine;
    }
    return stream.hash.copy().update('"]').digest('hex') === this.head.id;
  }
}
