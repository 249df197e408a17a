/**
 * The rendering eras of the prompt text the scraper reads, as one table: era → header family →
 * block layout → fields. A section header names its family (headers.ts); the family and the
 * section's first field line pick the block layout; the layout says which fields a block renders
 * and in what order (head.ts reads them). One event of each era, as its host renders it
 * (each `Event ID` is the NIP-01 hash of its block; test/legacy/era-table.test.ts scrapes each):
 *
 * V1 (Sprout), family `sprout-mention`, layout `message`:
 * ```text
 * [Sprout @mention]
 * Channel: 3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d
 * From: npub1cjuew9pm0w7c2y0jn2v3r7yqrq38pe92l8uvxu63qerp7jrgr69qgwpky5
 * Time: 2024-01-01T00:00:00+00:00
 * Message: hello @agent
 * ```
 *
 * V2 (Sprout), family `sprout-event`, layout `content` (`Tags:` only on some kinds):
 * ```text
 * [Sprout event: approvals]
 * Channel: 3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d
 * Kind: 46010
 * From: npub1cjuew9pm0w7c2y0jn2v3r7yqrq38pe92l8uvxu63qerp7jrgr69qgwpky5
 * Time: 2024-01-01T00:00:00+00:00
 * Content: Approval requested: deploy api-v2 to prod
 * Tags: [["h","3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d"],["p","e5ae46dbd459f38419f36f546c51a8e8f40f3426f3390f271cc7e770b79bcbcb"]]
 * ```
 *
 * V3 (Sprout), family `sprout-event` (or `bracket-merge` in a Steer/Interrupt merge), layout `rich`:
 * ```text
 * [Sprout event: @mention]
 * Event ID: b123ed7f4d1a8dca7b80b8f834bdeb80cb45ea098efef00d6e0da77197e57562
 * Channel: engineering (#3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d)
 * Kind: 9
 * From: Alice Chen (npub: npub1cjuew9pm0w7c2y0jn2v3r7yqrq38pe92l8uvxu63qerp7jrgr69qgwpky5, hex: c4b997143b7bbd8511f29a9911f880182270e4aaf9f8c3735106461f48681e8a)
 * Time: 2026-08-29T10:40:00+00:00
 * Content: @Scout can you summarize yesterday's deploy?
 * Tags: [["h","3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d"],["p","e5ae46dbd459f38419f36f546c51a8e8f40f3426f3390f271cc7e770b79bcbcb"]]
 * Parsed: mentions=[Scout (e5ae46dbd459f38419f36f546c51a8e8f40f3426f3390f271cc7e770b79bcbcb)]
 * ```
 *
 * V4 (Buzz), family `buzz-event` (or `bracket-merge`), layout `rich`, each section its own text block:
 * ```text
 * [Buzz event: @mention]
 * Event ID: b123ed7f4d1a8dca7b80b8f834bdeb80cb45ea098efef00d6e0da77197e57562
 * Channel: engineering (#3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d)
 * Kind: 9
 * From: Alice Chen (npub: npub1cjuew9pm0w7c2y0jn2v3r7yqrq38pe92l8uvxu63qerp7jrgr69qgwpky5, hex: c4b997143b7bbd8511f29a9911f880182270e4aaf9f8c3735106461f48681e8a)
 * Time: 2026-08-29T10:40:00+00:00
 * Content: @Scout can you summarize yesterday's deploy?
 * Tags: [["h","3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d"],["p","e5ae46dbd459f38419f36f546c51a8e8f40f3426f3390f271cc7e770b79bcbcb"]]
 * Parsed: mentions=[Scout (e5ae46dbd459f38419f36f546c51a8e8f40f3426f3390f271cc7e770b79bcbcb)]
 * ```
 *
 * V5 (Buzz), family `xml` (merges are XML frames too), layout `rich`:
 * ```text
 * <buzz-event type="@mention">
 * Event ID: b123ed7f4d1a8dca7b80b8f834bdeb80cb45ea098efef00d6e0da77197e57562
 * Channel: engineering (#3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d)
 * Kind: 9
 * From: Alice Chen (npub: npub1cjuew9pm0w7c2y0jn2v3r7yqrq38pe92l8uvxu63qerp7jrgr69qgwpky5, hex: c4b997143b7bbd8511f29a9911f880182270e4aaf9f8c3735106461f48681e8a)
 * Time: 2026-08-29T10:40:00+00:00
 * Content: @Scout can you summarize yesterday's deploy?
 * Tags: [["h","3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d"],["p","e5ae46dbd459f38419f36f546c51a8e8f40f3426f3390f271cc7e770b79bcbcb"]]
 * Parsed: mentions=[Scout (e5ae46dbd459f38419f36f546c51a8e8f40f3426f3390f271cc7e770b79bcbcb)]
 * </buzz-event>
 * ```
 *
 * Batches add a count to the header (`[Buzz events — 2 events]`, `<buzz-events count="2">`) and a
 * separator before each block (`--- Event 1 (@mention) ---`; V1 `--- Event 1 ---`).
 */
import type { LineText } from './line-text.js';

/** A rendering era of the prompt text. */
export type Era = 'v1' | 'v2' | 'v3' | 'v4' | 'v5';

/**
 * A family of section headers: `sprout-mention` (`[Sprout @mention]`), `sprout-event`
 * (`[Sprout event: …]`), `bracket-merge` (`[What you were working on]`, `[New message — …]`, …),
 * `buzz-event` (`[Buzz event: …]`) and `xml` (`<buzz-event …>`, `<buzz-events …>`, the XML merge frames).
 */
export type HeaderFamily = 'sprout-mention' | 'sprout-event' | 'bracket-merge' | 'buzz-event' | 'xml';

/**
 * How an event block is laid out: `message` (no kind, no id, `Message:`), `content` (a kind,
 * `Content:`, no id) or `rich` (`Event ID:` first, `Tags:` always).
 */
export type BlockLayout = 'message' | 'content' | 'rich';

/** One era: the header families that introduce its sections, its block layout and the fields of a block. */
export interface EraRow {
  readonly era: Era;
  readonly headers: readonly HeaderFamily[];
  readonly layout: BlockLayout;
  /** The labels of a block's lines in order; `?` marks a line only some blocks have. */
  readonly fields: readonly string[];
}

const RICH_FIELDS = ['Event ID', 'Channel', 'Kind', 'From', 'Time', 'Content', 'Tags', 'Parsed?'] as const;

/** Every era, oldest first. */
export const ERAS: readonly EraRow[] = [
  { era: 'v1', headers: ['sprout-mention'], layout: 'message', fields: ['Channel', 'From', 'Time', 'Message'] },
  {
    era: 'v2',
    headers: ['sprout-event'],
    layout: 'content',
    fields: ['Channel', 'Kind', 'From', 'Time', 'Content', 'Tags?'],
  },
  { era: 'v3', headers: ['sprout-event', 'bracket-merge'], layout: 'rich', fields: RICH_FIELDS },
  { era: 'v4', headers: ['buzz-event', 'bracket-merge'], layout: 'rich', fields: RICH_FIELDS },
  { era: 'v5', headers: ['xml'], layout: 'rich', fields: RICH_FIELDS },
];

/**
 * The layout of a section's blocks: the era its header family belongs to, and where a family spans
 * eras of different layouts (`sprout-event`: V2 or V3), the era whose first field label begins the
 * section's first field line (at `firstFieldLine` in `text`); the oldest such era when none does.
 */
export function layoutOf(family: HeaderFamily, text: LineText, firstFieldLine: number): BlockLayout {
  const eras = ERAS.filter((row) => row.headers.includes(family));
  const opens = (row: EraRow): boolean => text.startsWith(firstFieldLine, `${row.fields[0] ?? ''}: `);
  return (eras.find(opens) ?? eras[0])?.layout ?? 'rich';
}
