/**
 * Recomputing the NIP-01 id of a rendered event (spec §9 item 10). Every hashed field is rendered
 * verbatim (content exactly, tags as their JSON), so the id the host printed matches only the
 * reading whose field boundaries are the real ones: a forged separator or `Tags:` line inside a
 * message cannot produce it without a sha256 preimage.
 *
 * Hashing is bounded per scrape by a {@link HashBudget}, so input full of forged boundaries
 * costs a bounded multiple of its size and then fails, instead of hashing every prefix.
 */
import { nostrEventId } from '../envelope/crypto.js';
import type { RenderedTags } from './fields.js';

/** Characters that may still be hashed during one scrape. */
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

/** The hashed fields of a rendered event. */
export interface HashedFields {
  readonly id: string;
  readonly pubkey: string;
  readonly createdAt: number;
  readonly kind: number;
}

/** Whether the rendered id is the hash of these fields; `undefined` when the budget ran out. */
export function idMatches(
  fields: HashedFields,
  tags: RenderedTags,
  tagsText: string,
  content: string,
  budget: HashBudget,
): boolean | undefined {
  // What sha256 reads is about content + tags JSON + a fixed prefix; charge all of it.
  if (!budget.take(content.length + tagsText.length + 128)) return undefined;
  const id = nostrEventId({
    pubkey: fields.pubkey,
    created_at: fields.createdAt,
    kind: fields.kind,
    tags,
    content,
  });
  return id === fields.id;
}
