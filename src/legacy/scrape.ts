/**
 * The legacy scraper: rebuilds a {@link BuzzScrapedContext} from the prompt text of hosts that
 * send no `_meta.buzz`, for every rendering era (Sprout V1–V3, Buzz V4 bracket headers, V5 XML).
 *
 * Where sections come from decides what can be forged. From early Buzz on, each section is its
 * own ACP text block, and a block boundary is something message content cannot produce: a block
 * whose first line is a section header is a real section. Only when no block starts with one
 * (Sprout eras, early Buzz: one string) are headers looked for inside the text, and then a
 * reading is taken only if exactly one candidate header yields a complete, consistent sequence.
 */
import type { BuzzReadResult, BuzzScrapedContext } from '../context.js';
import { type BuzzErrorCode, BuzzMetaError } from '../errors.js';
import { type BuzzLimits, resolveLimits } from '../limits.js';
import { assemble } from './assemble.js';
import { textBlocks } from './blocks.js';
import { type ContextRead, isContextStart, readContext } from './context-block.js';
import { HashBudget } from './event-id.js';
import { sectionHeader } from './headers.js';
import { type Failure, isFailure } from './outcome.js';
import { LineText } from './line-text.js';
import { readSequence, type SectionMemo, type SectionRead, type SequenceRead } from './sections.js';
import { turnSections } from './turn.js';

/**
 * Options of {@link scrapePromptText}.
 *
 * @example
 * ```ts
 * import { scrapePromptText, type ScrapeOptions } from 'buzz-meta'
 *
 * const options: ScrapeOptions = { limits: { maxEvents: 20 } }
 * const scraped = scrapePromptText(params.prompt, options) // trust 'scraped' when ok
 * ```
 * @group Reading
 */
export interface ScrapeOptions {
  /** Size bounds; unspecified ones keep their defaults (`DEFAULT_LIMITS`). */
  readonly limits?: Partial<BuzzLimits>;
}

/**
 * The never-throwing result of {@link scrapePromptText}.
 *
 * @example
 * ```ts
 * import { scrapePromptText, type ScrapeResult } from 'buzz-meta'
 *
 * const scraped: ScrapeResult = scrapePromptText(params.prompt)
 * if (scraped.ok) console.error(scraped.context.channelId) // for routing and display, never to authorize
 * ```
 * @group Reading
 */
export type ScrapeResult = BuzzReadResult<BuzzScrapedContext>;

/** Candidate headers tried in one-string prompts; more than this is refused as ambiguous. */
const MAX_CANDIDATES = 8;

/**
 * Rebuilds the Buzz context from the text blocks of an ACP `prompt`. Never throws. The result is
 * `scraped`: any chat participant can shape this text, so use it for routing and display, never
 * to authorize.
 *
 * @example
 * ```ts
 * const read = scrapePromptText(params.prompt)
 * if (read.ok) console.error(read.context.channelId, read.context.events.at(-1)?.sender)
 * ```
 * @group Reading
 */
export function scrapePromptText(prompt: unknown, options?: ScrapeOptions): ScrapeResult {
  return settle(() => scrape(prompt, resolveLimits(options?.limits)));
}

/** {@link scrapePromptText} with the limits already resolved (the read pipeline resolves them once). */
export function scrapeWithLimits(prompt: unknown, limits: BuzzLimits): ScrapeResult {
  return settle(() => scrape(prompt, limits));
}

/** The result of `run`: its context, or the error it threw (anything but a `BuzzMetaError` is `internal`). */
function settle(run: () => BuzzScrapedContext): ScrapeResult {
  try {
    return { ok: true, context: run() };
  } catch (error) {
    if (error instanceof BuzzMetaError) return { ok: false, error };
    return {
      ok: false,
      error: BuzzMetaError.of('internal', '/prompt', 'unexpected failure while reading prompt text'),
    };
  }
}

/** Characters of prompt text read at most: every event at its content bound, plus room for structure. */
function maxTextLength(limits: BuzzLimits): number {
  return 2 * (limits.maxEvents + 1) * (limits.maxContentLength + 4096);
}

function scrape(prompt: unknown, limits: BuzzLimits): BuzzScrapedContext {
  const found = textBlocks(prompt);
  if (found === undefined) {
    throw BuzzMetaError.of('no_buzz_context', '/prompt', 'the request has no _meta.buzz and no prompt text');
  }
  if (found.length > maxTextLength(limits)) {
    throw BuzzMetaError.of(
      'limit_exceeded',
      '/prompt',
      'the prompt text is longer than the limits allow for any delivery',
    );
  }
  // Each real block is checked once (its content and a fixed cost below a block's length: less than
  // the text's length in all); forged ends may cost as much again, then reading stops.
  const budget = new HashBudget(2 * found.length + 65_536);
  const texts = found.blocks.map((block) => ({ index: block.index, text: new LineText(block.text) }));
  const diagnostics: string[] = [];
  const perBlock = texts.filter((block) => sectionHeader(block.text.line(0) ?? '') !== undefined);
  let sections: readonly SectionRead[];
  let context: ContextRead | undefined;
  if (perBlock.length > 0) {
    const found: SectionRead[] = [];
    for (const block of perBlock) {
      const read = readSequence(block.text, 0, budget);
      if (isFailure(read)) throw toError(read, `/prompt/${block.index}/text`);
      found.push(...read.sections);
    }
    sections = found;
    const contextBlock = texts.find((block) => isContextStart(block.text.line(0)));
    context = contextBlock === undefined ? undefined : readLines(contextBlock.text, 0, contextBlock.text.end);
  } else {
    // One string (Sprout eras, early Buzz): several blocks read as if the host had joined them with a blank line.
    const text = new LineText(found.blocks.map((block) => block.text).join('\n\n'));
    const chosen = chooseInOneString(text, budget);
    sections = chosen.sections;
    const contextLine = linesAfterBlank(text).find((line) => isContextStart(text.line(line)));
    // The context section lies between its first line and the chosen sequence: read as an array.
    context =
      contextLine === undefined || contextLine > chosen.start ? undefined : readLines(text, contextLine, chosen.start);
  }
  const context_ = assemble(sections, context, limits, diagnostics);
  if (isFailure(context_)) throw toError(context_, '/prompt');
  return context_;
}

/**
 * One string: every header at the start of the text or after a blank line is a candidate. A
 * reading is taken only when it reads whole in a shape hosts render and every other candidate
 * either is one of its own later sections or fails for certain: another reading that reads whole,
 * or one left undecided (a hash budget spent, a block that starts like the host's and then does not
 * read), makes the prompt ambiguous. The real reading is never dropped for a quoted one.
 */
function chooseInOneString(text: LineText, budget: HashBudget): { sections: readonly SectionRead[]; start: number } {
  const candidates = linesAfterBlank(text).filter((line) => sectionHeader(text.line(line) ?? '') !== undefined);
  if (candidates.length === 0) {
    throw BuzzMetaError.of(
      'no_buzz_context',
      '/prompt',
      'the request has no _meta.buzz and its prompt text has no Buzz event block',
    );
  }
  if (candidates.length > MAX_CANDIDATES) {
    throw BuzzMetaError.of(
      'ambiguous_prompt_text',
      '/prompt',
      'the prompt text has too many Buzz section headers to tell the real one',
    );
  }
  const memo: SectionMemo = new Map();
  const readings: { start: number; sections: readonly SectionRead[] }[] = [];
  // Later sections of a reading already taken: reading from them again gives the same sections.
  const inner = new Set<number>();
  let firstFailure: Failure | undefined;
  let firstUndecided: Failure | undefined;
  for (const start of candidates) {
    if (inner.has(start)) continue;
    const read = readSequence(text, start, budget, memo);
    const shaped = isFailure(read) ? read : turnSections(read.sections);
    if (isFailure(shaped)) {
      if (shaped.undecided === true) firstUndecided ??= shaped;
      else firstFailure ??= shaped;
      continue;
    }
    const sections = (read as SequenceRead).sections;
    readings.push({ start, sections });
    for (const section of sections.slice(1)) inner.add(section.headerLine);
  }
  const [reading, other] = readings;
  if (other !== undefined) {
    throw BuzzMetaError.of(
      'ambiguous_prompt_text',
      '/prompt',
      'more than one Buzz event block reads whole; a message may be quoting one',
    );
  }
  if (reading !== undefined && firstUndecided !== undefined) {
    throw BuzzMetaError.of(
      'ambiguous_prompt_text',
      '/prompt',
      'a Buzz section in the text could not be checked, so the one that reads whole may be quoting the real one',
    );
  }
  if (reading !== undefined) return reading;
  throw toError(
    firstUndecided ?? firstFailure ?? { failure: 'invalid', message: 'no Buzz event block reads whole' },
    '/prompt',
  );
}

/** The first line and every line right after an empty one, in order: where a one-string prompt's sections may start. */
function linesAfterBlank(text: LineText): number[] {
  const found = [0];
  if (text.text.startsWith('\n')) found.push(1);
  // `\n\n` ends an empty line; the search goes on from its second `\n`, so runs of empty lines count each.
  for (let at = text.text.indexOf('\n\n'); at !== -1; at = text.text.indexOf('\n\n', at + 1)) found.push(at + 2);
  return found;
}

/** The context section from line `from` up to line `to` (exclusive): a few short lines, read as an array. */
function readLines(text: LineText, from: number, to: number): ContextRead {
  const lines = text.slice(from, to).split('\n');
  return readContext(lines, 0, lines.length);
}

const CODES: Readonly<Record<Failure['failure'], BuzzErrorCode>> = {
  invalid: 'invalid_prompt_text',
  ambiguous: 'ambiguous_prompt_text',
  limit: 'limit_exceeded',
};

function toError(failure: Failure, path: string): BuzzMetaError {
  return BuzzMetaError.of(CODES[failure.failure], path, failure.message);
}
