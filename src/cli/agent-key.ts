/**
 * Where the command's pinned agent key comes from: `--agent-pubkey`, else `BUZZ_AGENT_NPUB` (the
 * name `keygen` prints and the examples read), else `BUZZ_AGENT_PUBKEY`, its old name, still
 * read. An empty variable is no key. Both variables set to different keys is refused: which one
 * the user meant cannot be guessed, and guessing wrong reads envelopes against the wrong key.
 */
import { BuzzMetaError } from '../errors.js';
import { toHexPubkey } from '../npub.js';
import { CliError } from './cli-error.js';

/** The variable `keygen` tells the user to set. */
const KEY_VARIABLE = 'BUZZ_AGENT_NPUB';
/** Its old name, read when the new one is not set. */
const OLD_KEY_VARIABLE = 'BUZZ_AGENT_PUBKEY';

/** A key as given, and where it was given (to name it in an error). */
export interface GivenKey {
  readonly key: string;
  /** `--agent-pubkey`, `BUZZ_AGENT_NPUB` or `BUZZ_AGENT_PUBKEY`. */
  readonly source: string;
}

/** The pinned key from the flag or the environment, or `undefined` when none is given. */
export function agentKey(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): GivenKey | undefined {
  if (flag !== undefined) return { key: flag, source: '--agent-pubkey' };
  const current = nonEmpty(env[KEY_VARIABLE]);
  const old = nonEmpty(env[OLD_KEY_VARIABLE]);
  if (current !== undefined && old !== undefined && !sameKey(current, old)) {
    throw new CliError(
      `${KEY_VARIABLE} and ${OLD_KEY_VARIABLE} (its old name) are set to different keys: ` +
        `unset ${OLD_KEY_VARIABLE}, or pass --agent-pubkey`,
    );
  }
  if (current !== undefined) return { key: current, source: KEY_VARIABLE };
  if (old !== undefined) return { key: old, source: OLD_KEY_VARIABLE };
  return undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}

/** The same text, or the same key written two ways (npub and hex). */
function sameKey(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return toHexPubkey(a) === toHexPubkey(b);
  } catch (error) {
    // One of them is no key at all: not the same one.
    if (error instanceof BuzzMetaError) return false;
    throw error;
  }
}
