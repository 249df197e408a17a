/**
 * From sections to a {@link BuzzScrapedContext}: which section holds this turn's events and which
 * the cancelled turn, one channel for all of them, the channel type only where the text names it,
 * reply anchors where the context renders them, and the bounds every source obeys.
 */
import type { BuzzEvent, BuzzReply, BuzzScrapedContext } from '../context.js';
import type { BuzzLimits } from '../limits.js';
import { markedAnchors } from '../shared/nip10.js';
import { ownCopy } from '../shared/own-copy.js';
import type { ContextRead } from './context-block.js';
import { fail, type Failure, isFailure, type Mutable, type ScrapedEvent } from './outcome.js';
import type { SectionRead } from './sections.js';
import { turnSections } from './turn.js';

/** Builds the context from the sections found (in prompt order) and the context section, if any. */
export function assemble(
  sections: readonly SectionRead[],
  context: ContextRead | undefined,
  limits: BuzzLimits,
  diagnostics: string[],
): BuzzScrapedContext | Failure {
  const turn = turnSections(sections);
  if (isFailure(turn)) return turn;
  const section = turn.current;
  const cancelledSection = turn.cancelled;
  // A restart re-prompt alone carries only the interrupted turn: its events are the cancelled ones.
  const restartOnly = section === undefined;
  for (const read of sections) diagnostics.push(...read.diagnostics);
  if (restartOnly) {
    diagnostics.push(
      "a restart re-prompt: the interrupted turn's events are in cancelledEvents, and no new event came",
    );
  }
  const scraped = section?.events ?? [];
  const cancelled = cancelledSection?.events ?? [];
  const bounded = checkLimits(scraped, limits) ?? checkLimits(cancelled, limits);
  if (bounded !== undefined) return bounded;

  // Ids, channel and senders are what stores and partitions keep: copies that do not pin the prompt.
  const channelId = ownCopy((scraped[0] ?? cancelled[0])?.channel.id ?? '');
  for (const event of [...scraped, ...cancelled]) {
    if (event.channel.id !== channelId) return fail('invalid', 'the events name different channels');
  }
  if (context?.channel !== undefined && context.channel.id !== channelId) {
    return fail('invalid', 'the context section names another channel than the events');
  }
  if (context !== undefined && context.channel === undefined) {
    diagnostics.push('the context section has no readable Channel line');
  }
  const channelName =
    context?.channel?.name ??
    [...scraped, ...cancelled].find((event) => event.channel.name !== undefined)?.channel.name;
  const events = scraped.map(toBuzzEvent);
  const senders = new Set(events.map((event) => event.sender)).size;
  if (senders > 1) diagnostics.push(`${senders} distinct senders in this delivery`);
  const reply = replyOf(events, context, diagnostics);
  return {
    source: 'prompt-text',
    trust: 'scraped',
    channelId,
    channelType: context?.scope === 'dm' ? 'dm' : context?.scope === undefined ? 'unknown' : 'channel',
    ...(channelName === undefined ? {} : { channelName }),
    events,
    cancelledEvents: cancelled.map(toBuzzEvent),
    ...(reply === undefined ? {} : { reply }),
    diagnostics,
  };
}

function checkLimits(events: readonly ScrapedEvent[], limits: BuzzLimits): Failure | undefined {
  if (events.length > limits.maxEvents) return fail('limit', 'more events than maxEvents allows');
  for (const event of events) {
    if (event.content.length > limits.maxContentLength) {
      return fail('limit', 'an event content is longer than maxContentLength');
    }
    const tags = event.tags ?? [];
    if (tags.length > limits.maxTags) return fail('limit', 'an event has more tags than maxTags allows');
    for (const tag of tags) {
      if (tag.length > limits.maxTagValues) return fail('limit', 'a tag has more values than maxTagValues allows');
      if (tag.some((value) => value.length > limits.maxTagValueLength)) {
        return fail('limit', 'a tag value is longer than maxTagValueLength');
      }
    }
  }
  return undefined;
}

function toBuzzEvent(event: ScrapedEvent): BuzzEvent {
  const copy: Mutable<BuzzEvent> = {
    id: event.id === null ? null : ownCopy(event.id),
    sender: ownCopy(event.sender),
    kind: event.kind,
    createdAt: event.createdAt,
    content: event.content,
  };
  // Assigned rather than spread in (once per event of every prompt). Tags are copied, so no two
  // contexts share an array.
  if (event.tags !== undefined) copy.tags = event.tags.map((tag) => tag.slice());
  if (event.senderLabel !== undefined) copy.senderLabel = event.senderLabel;
  return copy;
}

/**
 * Thread anchors: `Thread root:` / `Parent:` from the context where rendered, else the last
 * event's NIP-10 markers, else the last event starts its own thread. Needs the last event's id.
 */
function replyOf(
  events: readonly BuzzEvent[],
  context: ContextRead | undefined,
  diagnostics: string[],
): BuzzReply | undefined {
  const last = events[events.length - 1];
  if (last?.id === null || last === undefined) return undefined;
  let rootEventId: string;
  let parentEventId: string | null;
  if (context?.threadRoot !== undefined) {
    rootEventId = ownCopy(context.threadRoot);
    parentEventId = context.parent === undefined ? rootEventId : ownCopy(context.parent);
  } else {
    const anchors = markedAnchors(last.tags ?? []);
    if (!anchors.ok) {
      diagnostics.push('the last event has an e tag buzz-acp would refuse, so its thread is unknown');
      return undefined;
    }
    rootEventId = anchors.value.root ?? anchors.value.parent ?? last.id;
    parentEventId = anchors.value.parent ?? null;
  }
  const replyTo = context?.replyTo;
  if (replyTo !== undefined && replyTo !== rootEventId && replyTo !== last.id) {
    diagnostics.push('the reply instruction names neither the thread root nor the last event');
  }
  return { rootEventId, parentEventId, replyToEventId: last.id };
}
