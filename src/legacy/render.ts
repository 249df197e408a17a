/**
 * `renderPromptText`: the prompt text a Buzz host of each era sends when it sends no `_meta.buzz`,
 * as ACP text blocks, so an agent can test the path its legacy hosts take (what
 * `scrapePromptText` and `readBuzzContext` make of it) without a host of that era.
 */
import { BuzzMetaError } from '../errors.js';
import { isHex64 } from '../shared/hex.js';
import type { PromptTextChannel, PromptTextEvent } from './render-event.js';
import {
  contextSection,
  eventSection,
  mergeSections,
  type PromptTextContext,
  type PromptTextEra,
  restartSections,
} from './render-sections.js';

/**
 * What {@link renderPromptText} renders: one turn of one channel, in one era's layout.
 *
 * @example
 * ```ts
 * import { renderPromptText, type PromptTextInput } from 'buzz-meta/host'
 *
 * const input: PromptTextInput = {
 *   era: 'v5',
 *   channel: { id: channelId, name: 'engineering' },
 *   context: { scope: 'thread', root: rootId },
 *   events: [signedEvent],
 * }
 * const text = renderPromptText(input) // what a V5 host sends in place of _meta.buzz
 * ```
 * @group Host
 */
export interface PromptTextInput {
  /**
   * The host generation: `'v1'` (Sprout, `[Sprout @mention]`, `Message:`), `'v2'` (Sprout,
   * `[Sprout event: <tag>]`, no event id), `'v3'` (Sprout, rich blocks with `Event ID:`), `'v4'`
   * (Buzz, `[Buzz event: <tag>]`, each section its own text block), `'v5'` (Buzz, XML frames).
   */
  readonly era: PromptTextEra;
  /** The channel of the turn. */
  readonly channel: PromptTextChannel;
  /** The turn's events in arrival order: one renders the single-event header, more a batch. Empty only for `cancelled.as: 'restart'`. */
  readonly events: readonly PromptTextEvent[];
  /** The rule's prompt tag (default `'@mention'`), printed by V2–V5; V1's header has none. */
  readonly tag?: string;
  /** A `[Context]` section (V3, V4) or `<context>` (V5) before the events. */
  readonly context?: PromptTextContext;
  /**
   * Events of a cancelled turn, rendered before this one's: a Steer or Interrupt merge (V4, V5),
   * or the V5 re-prompt after a harness restart (`'restart'`: no new events).
   */
  readonly cancelled?: {
    readonly as: 'steer' | 'interrupt' | 'restart';
    readonly events: readonly PromptTextEvent[];
  };
}

/**
 * One ACP text block (`ContentBlock` of type `text`).
 *
 * @example
 * ```ts
 * import { renderPromptText, type PromptTextBlock } from 'buzz-meta/host'
 *
 * const blocks: PromptTextBlock[] = renderPromptText({ era: 'v4', channel: { id: channelId }, events: [signedEvent] })
 * const request: PromptRequest = { sessionId, prompt: blocks } // one ACP text block per section
 * ```
 * @group Host
 */
export interface PromptTextBlock {
  /** Always `'text'`. */
  type: 'text';
  /** The block's text. */
  text: string;
}

const ERAS: readonly string[] = ['v1', 'v2', 'v3', 'v4', 'v5'];

function refuse(path: string, message: string): never {
  throw BuzzMetaError.of('invalid_option', path, message);
}

function checkEvents(events: readonly PromptTextEvent[], path: string): void {
  events.forEach((event, index) => {
    if (!isHex64(event.pubkey)) refuse(`${path}/${String(index)}/pubkey`, 'pubkey must be 64 lowercase hex digits');
  });
}

/**
 * Renders the prompt text of one turn the way a Buzz host of `input.era` does: each section its
 * own text block for V4 and V5, one block for V1–V3 (V3 joins its sections with a blank line).
 * Ids are NIP-01 hashes of the events, so the text reads back as `trust: 'scraped'` with the
 * events' ids (V3–V5), senders, kinds and times.
 *
 * @example
 * ```ts
 * const prompt = renderPromptText({ era: 'v4', channel: { id: channelId, name: 'engineering' }, events: [signedEvent] })
 * readBuzzContext({ sessionId, prompt }) // ok, source 'prompt-text', trust 'scraped'
 * ```
 * @throws BuzzMetaError `invalid_option` for what the era never rendered (a context before V3, a merge before V4,
 * a restart before V5), no events, or a pubkey that is not 64 lowercase hex digits.
 * @group Host
 */
export function renderPromptText(input: PromptTextInput): PromptTextBlock[] {
  const { era, channel, events, context, cancelled } = input;
  if (!ERAS.includes(era)) refuse('/era', 'era must be "v1", "v2", "v3", "v4" or "v5"');
  const tag = input.tag ?? '@mention';
  if (era === 'v1' && input.tag !== undefined) refuse('/tag', 'V1 renders no tag: its header is [Sprout @mention]');
  checkEvents(events, '/events');
  const restart = cancelled?.as === 'restart';
  if (restart ? events.length > 0 : events.length === 0) {
    refuse('/events', restart ? 'a restart re-prompt carries no new events' : 'a turn renders at least one event');
  }
  if (cancelled !== undefined) {
    checkEvents(cancelled.events, '/cancelled/events');
    if (cancelled.events.length === 0) refuse('/cancelled/events', 'cancelled needs at least one event');
  }
  if (era === 'v1' || era === 'v2') {
    if (context !== undefined) refuse('/context', 'V1 and V2 prompts have no context section');
    if (cancelled !== undefined) refuse('/cancelled', 'V1 and V2 prompts have no merges');
    return [{ type: 'text', text: eventSection(era, events, channel, tag) }];
  }
  const head = context === undefined ? [] : [contextSection(era, context.scope, channel, context)];
  if (era === 'v3') {
    if (cancelled !== undefined) refuse('/cancelled', 'merges are rendered for V4 and V5');
    return [{ type: 'text', text: [...head, eventSection(era, events, channel, tag)].join('\n\n') }];
  }
  let turn: string[];
  if (cancelled === undefined) turn = [eventSection(era, events, channel, tag)];
  else if (cancelled.as !== 'restart') turn = mergeSections(era, cancelled.as, cancelled.events, events, channel, tag);
  else if (era === 'v5') turn = restartSections(cancelled.events, channel, tag);
  else refuse('/cancelled/as', 'the restart re-prompt is rendered for V5');
  return [...head, ...turn].map((text) => ({ type: 'text', text }));
}
