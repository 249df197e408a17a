/**
 * The `[Context]` / `<context>` section: scope (the only place a DM is named), the channel, and
 * the thread anchors (`Thread root:`, `Parent:`, `--reply-to <id>`). Its lines are the host's,
 * except the channel name and (early Buzz) channel metadata, which come before the anchors: so
 * scope and channel are read by position and each anchor from its **last** occurrence.
 */
import { isHex64 } from '../shared/hex.js';
import { type ChannelDisplay, fieldValue, parseChannelDisplay } from './fields.js';

/** What a context section says. */
export interface ContextRead {
  /** `dm`, `thread`, `channel`, or `undefined` when the scope line is missing or unknown. */
  readonly scope: 'dm' | 'thread' | 'channel' | undefined;
  /** The channel line, when it reads whole. */
  readonly channel: ChannelDisplay | undefined;
  /** `Thread root:`. */
  readonly threadRoot: string | undefined;
  /** `Parent:`. */
  readonly parent: string | undefined;
  /** The id after `--reply-to ` in the reply instruction. */
  readonly replyTo: string | undefined;
}

/** True for the first line of a context section. */
export function isContextStart(line: string | undefined): boolean {
  return line === '[Context]' || line === '<context>';
}

const SCOPES: ReadonlySet<string> = new Set(['dm', 'thread', 'channel']);

/** Reads the context section starting at `start`; it ends at `end`, a blank line or `</context>`. */
export function readContext(lines: readonly string[], start: number, end: number): ContextRead {
  let at = start + 1;
  const scopeText = fieldValue(lines[at], 'Scope: ');
  const scope =
    scopeText !== undefined && SCOPES.has(scopeText) ? (scopeText as 'dm' | 'thread' | 'channel') : undefined;
  if (scopeText !== undefined) at++;
  if (fieldValue(lines[at], 'Session scope: ') !== undefined) at++;
  const channelText = fieldValue(lines[at], 'Channel: ');
  const channel = channelText === undefined ? undefined : parseChannelDisplay(channelText);
  let threadRoot: string | undefined;
  let parent: string | undefined;
  let replyTo: string | undefined;
  for (let line = at + 1; line < end; line++) {
    const text = lines[line] ?? '';
    if (text === '' || text === '</context>') break;
    threadRoot = hexField(text, 'Thread root: ') ?? threadRoot;
    parent = hexField(text, 'Parent: ') ?? parent;
    if (text.startsWith('IMPORTANT: ')) replyTo = replyTarget(text) ?? replyTo;
  }
  return { scope, channel, threadRoot, parent, replyTo };
}

function hexField(line: string, label: string): string | undefined {
  const value = fieldValue(line, label);
  return isHex64(value) ? value : undefined;
}

/** The 64-hex id right after the first `--reply-to ` of an instruction, validated whole. */
function replyTarget(line: string): string | undefined {
  const at = line.indexOf('--reply-to ');
  // Without one, `at` is -1 and the slice below starts at the space after `IMPORTANT:`: never an id.
  const id = line.slice(at + 11, at + 75);
  const after = line.charAt(at + 75);
  return isHex64(id) && !/[0-9a-z]/i.test(after) ? id : undefined;
}
