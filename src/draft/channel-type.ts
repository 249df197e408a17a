/**
 * The draft's `channelType`, in the value set of whichever host sent it: the proposal's `channel` /
 * `dm`, and PR #4751's `dm` / `private` / `stream` (an open channel) / `unknown`, or no key when the
 * host could not resolve the channel. It is unsigned, descriptive data: a value no host sent before
 * reads as `unknown` with a diagnostic, so agents keep working when a host adds one.
 */
import type { BuzzChannelType } from '../context.js';

/** Every value a host is known to send, and what it means here. */
const KNOWN: Readonly<Record<string, BuzzChannelType>> = {
  dm: 'dm',
  channel: 'channel',
  stream: 'channel',
  private: 'channel',
  unknown: 'unknown',
};

/** A value worth keeping and naming in a diagnostic: a short lowercase name, as hosts write them. */
const NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** The normalized channel type, the host's value to keep (if any), and a diagnostic (if any). */
interface ReadChannelType {
  readonly channelType: BuzzChannelType;
  readonly hostChannelType?: string;
  readonly diagnostic?: string;
}

/** Maps the host's `channelType` (`undefined` when the key is absent). */
export function readChannelType(value: string | undefined): ReadChannelType {
  if (value === undefined) return { channelType: 'unknown' };
  const known = Object.hasOwn(KNOWN, value) ? KNOWN[value] : undefined;
  if (known !== undefined) return { channelType: known, hostChannelType: value };
  if (!NAME.test(value)) {
    return {
      channelType: 'unknown',
      diagnostic: '/_meta/buzz/channelType is not a short lowercase name; read as unknown and not kept',
    };
  }
  return {
    channelType: 'unknown',
    hostChannelType: value,
    diagnostic: `/_meta/buzz/channelType "${value}" is a value no known host sends; read as unknown`,
  };
}
