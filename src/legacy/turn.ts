/**
 * Which sections of a prompt hold this turn's events and which the cancelled turn, and whether
 * they form a shape hosts render: one event section, or a merge (an optional cancelled section,
 * then a merge section with the new events), all in one framing (bracket headers or XML frames).
 * A quoted section in front of the real ones makes another shape (a cancelled turn before a plain
 * event section, or an XML frame before a bracket header), so it is refused here.
 */
import { fail, type Failure } from './outcome.js';
import type { SectionRead } from './sections.js';

/** The sections that hold events, once the shape is known to be a host's. */
interface TurnSections {
  /**
   * This turn's events; absent only for a restart re-prompt (`<your-interrupted-turn-was-handling>`
   * alone), which carries the interrupted turn's events and no new ones.
   */
  readonly current: SectionRead | undefined;
  /** The cancelled turn of a merge, if any. */
  readonly cancelled: SectionRead | undefined;
}

/** The turn's sections among `sections` (in prompt order), or why they are not a shape hosts render. */
export function turnSections(sections: readonly SectionRead[]): TurnSections | Failure {
  const current = sections.filter((section) => section.header.role === 'events' && section.events.length > 0);
  const prior = sections.filter((section) => section.header.role === 'prior' && section.events.length > 0);
  const section = current[0];
  const cancelled = prior[0];
  if (section === undefined) return restartAlone(sections, cancelled, prior.length);
  if (current.length > 1 || prior.length > 1) {
    return fail('ambiguous', 'more than one Buzz event section in one prompt');
  }
  if (cancelled !== undefined && sections.indexOf(cancelled) > sections.indexOf(section)) {
    return fail('invalid', 'the cancelled turn of a merge comes after the new one');
  }
  const bracket = section.header.close === undefined;
  if (sections.some((other) => (other.header.close === undefined) !== bracket)) {
    return fail('invalid', 'the Buzz sections of one prompt mix bracket headers and XML frames');
  }
  if (cancelled !== undefined && !section.header.merge) {
    return fail('invalid', 'a cancelled turn is followed by a plain event section, not by a merge section');
  }
  return { current: section, cancelled };
}

/** A prompt without an event section reads only as the restart re-prompt: its one frame, all XML. */
function restartAlone(
  sections: readonly SectionRead[],
  cancelled: SectionRead | undefined,
  priorCount: number,
): TurnSections | Failure {
  if (cancelled?.header.restart !== true) return fail('invalid', 'the Buzz sections hold no event of this turn');
  if (priorCount > 1) return fail('ambiguous', 'more than one Buzz event section in one prompt');
  if (sections.some((other) => other.header.close === undefined)) {
    return fail('invalid', 'the Buzz sections of one prompt mix bracket headers and XML frames');
  }
  return { current: undefined, cancelled };
}
