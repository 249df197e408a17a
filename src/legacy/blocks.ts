/**
 * The text blocks of an ACP `prompt`, read from own properties only. Other block types (images,
 * resources) are skipped; anything that is not a content-block array yields no text.
 */

/** One text block and its place in the prompt (for error paths). */
interface TextBlock {
  /** Index in the `prompt` array. */
  readonly index: number;
  /** The block's text. */
  readonly text: string;
}

/** The text blocks of `prompt`, in order, and their total length; `undefined` when it is not an array. */
export function textBlocks(prompt: unknown): { blocks: TextBlock[]; length: number } | undefined {
  if (!Array.isArray(prompt)) return undefined;
  const blocks: TextBlock[] = [];
  let length = 0;
  const items = prompt as readonly unknown[];
  for (const [index, block] of items.entries()) {
    if (typeof block !== 'object' || block === null) continue;
    if (!Object.hasOwn(block, 'type') || (block as { type: unknown }).type !== 'text') continue;
    const text: unknown = Object.hasOwn(block, 'text') ? (block as { text: unknown }).text : undefined;
    if (typeof text !== 'string') continue;
    blocks.push({ index, text });
    length += text.length;
  }
  return { blocks, length };
}
