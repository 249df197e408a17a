/**
 * `buzz-meta keygen`, `npub` and `hex`: make the key pair a host signs envelopes with and an
 * agent pins (`BUZZ_AGENT_NPUB`), and convert between npub and hex.
 */
import { nsecEncode } from 'nostr-tools/nip19';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { BuzzMetaError } from '../errors.js';
import { toHexPubkey, toNpub } from '../npub.js';
import { CliError } from './cli-error.js';

/** A fresh key pair: the nsec for the host, the npub and hex for the agent to pin. */
interface KeyPair {
  /** The secret key as an nsec: the host's only, never the agent's. */
  readonly nsec: string;
  /** The public key as an npub: what the agent pins. */
  readonly npub: string;
  /** The public key as 64 hex digits. */
  readonly hex: string;
}

/** Makes a new key pair with a cryptographically secure random secret. */
export function keygen(): KeyPair {
  const secret = generateSecretKey();
  const hex = getPublicKey(secret);
  return { nsec: nsecEncode(secret), npub: toNpub(hex), hex };
}

/** The key pair as the command prints it on a terminal. */
export function renderKeyPair(pair: KeyPair): string {
  return [
    `nsec  ${pair.nsec}`,
    '      secret: the host signs envelopes with it; keep it out of the agent and of logs',
    `npub  ${pair.npub}`,
    '      pin it in the agent: BUZZ_AGENT_NPUB=<npub>',
    `hex   ${pair.hex}`,
    '',
  ].join('\n');
}

/** `npub KEY` / `hex KEY`: the key in the other form, or a one-line error. */
export function convertKey(key: string, to: 'npub' | 'hex'): string {
  try {
    const hex = toHexPubkey(key);
    return to === 'hex' ? hex : toNpub(hex);
  } catch (error) {
    if (error instanceof BuzzMetaError) throw new CliError(`${to}: ${error.message}`);
    throw error;
  }
}
