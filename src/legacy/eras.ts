/**
 * The rendering eras of the prompt text the scraper reads, as tables: era → header families →
 * block layout → fields. {@link ERAS} names each era's header families and block layout;
 * {@link HEADERS} holds each family's header lines, which headers.ts recognizes; {@link LAYOUTS}
 * holds each layout's field lines, in order, with how each value reads, which head.ts follows. A
 * section header names its family; the family and the section's first field line pick the layout
 * (sections.ts).
 * One event of each era, as its host renders it (each `Event ID` is the NIP-01 hash of its block;
 * test/legacy/era-table.test.ts scrapes each and checks its lines against the tables):
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
/** A rendering era of the prompt text. */
type Era = 'v1' | 'v2' | 'v3' | 'v4' | 'v5';

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

/** One era: the header families that introduce its sections, and its block layout. */
export interface EraRow {
  readonly era: Era;
  readonly headers: readonly HeaderFamily[];
  readonly layout: BlockLayout;
}

/** Every era, oldest first. */
export const ERAS: readonly EraRow[] = [
  { era: 'v1', headers: ['sprout-mention'], layout: 'message' },
  { era: 'v2', headers: ['sprout-event'], layout: 'content' },
  { era: 'v3', headers: ['sprout-event', 'bracket-merge'], layout: 'rich' },
  { era: 'v4', headers: ['buzz-event', 'bracket-merge'], layout: 'rich' },
  { era: 'v5', headers: ['xml'], layout: 'rich' },
];

/** What a section holds: this turn's events, or the cancelled turn of a merge. */
export type SectionRole = 'events' | 'prior';

/** The separator of a header's words: an em dash (U+2014, not a hyphen) with a space each side. */
const EM = ' \u2014 ';

/**
 * The header lines of each family, whole lines with their exact characters. A bracket family has
 * a single-event header (`single`: a prefix, or for `sprout-mention` the whole line) and a batch
 * header (`batch`: the text before `N events]`); `bracket-merge` has single headers by exact text
 * with their role, and batch prefixes (always this turn's events); `xml` names elements (a single
 * event needs a `type` attribute, a batch a `count`), and its merge frames by role, among them the
 * kept-session re-prompt's (`restart`), which after a harness restart is sent alone.
 */
export const HEADERS = {
  'sprout-mention': { single: '[Sprout @mention]', batch: `[Sprout @mention${EM}` },
  'sprout-event': { single: '[Sprout event: ', batch: `[Sprout events${EM}` },
  'buzz-event': { single: '[Buzz event: ', batch: `[Buzz events${EM}` },
  'bracket-merge': {
    single: {
      '[What you were working on]': 'prior',
      [`[Previous request${EM}interrupted before completion]`]: 'prior',
      [`[New message${EM}arrived while you were working]`]: 'events',
      [`[New request${EM}supersedes previous]`]: 'events',
    } as Readonly<Record<string, SectionRole>>,
    batch: [`[New messages${EM}arrived while you were working${EM}`, `[New request${EM}supersedes previous${EM}`],
  },
  xml: {
    single: 'buzz-event',
    batch: 'buzz-events',
    merges: {
      'what-you-were-working-on': 'prior',
      'previous-request-interrupted-before-completion': 'prior',
      'your-interrupted-turn-was-handling': 'prior',
      'new-message-arrived-while-you-were-working': 'events',
      'new-request-supersedes-previous': 'events',
    } as Readonly<Record<string, SectionRole>>,
    restart: 'your-interrupted-turn-was-handling',
  },
} as const;

/** The field lines of one block layout, in the order a block renders them. */
interface LayoutRow {
  /** An `Event ID:` line first (64 hex digits). */
  readonly eventId: boolean;
  /** `Channel:` as a bare UUID only, or as a UUID or `name (#uuid)`. */
  readonly channel: 'uuid' | 'uuid-or-named';
  /** A `Kind:` line after the channel. */
  readonly kind: boolean;
  /** `From:` as a bare npub, or as `name (npub: …, hex: …)` (whose npub and hex must agree). */
  readonly sender: 'npub' | 'named';
  /** The label of the line the content starts on, after `Time:` (ISO 8601). */
  readonly body: 'Message' | 'Content';
  /** The lines after the content; `?` marks one only some blocks have. */
  readonly tail: readonly string[];
}

/** Every block layout. */
export const LAYOUTS: Readonly<Record<BlockLayout, LayoutRow>> = {
  message: { eventId: false, channel: 'uuid', kind: false, sender: 'npub', body: 'Message', tail: [] },
  content: { eventId: false, channel: 'uuid', kind: true, sender: 'npub', body: 'Content', tail: ['Tags?'] },
  rich: {
    eventId: true,
    channel: 'uuid-or-named',
    kind: true,
    sender: 'named',
    body: 'Content',
    tail: ['Tags', 'Parsed?'],
  },
};

/** The labels of a layout's lines in order, as {@link LAYOUTS} describes them (`?`: only some blocks). */
export function fieldsOf(layout: BlockLayout): readonly string[] {
  const row = LAYOUTS[layout];
  const id = row.eventId ? ['Event ID'] : [];
  const kind = row.kind ? ['Kind'] : [];
  return [...id, 'Channel', ...kind, 'From', 'Time', row.body, ...row.tail];
}
