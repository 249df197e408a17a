/**
 * The wording of the errors a person meets first (a key pasted with a space or a `nostr:` prefix,
 * an empty environment variable, a forgotten options argument, an npub where the builder wants
 * hex), pinned one per test: each must say what to do, and none may echo the value received.
 */
import { nsecEncode } from 'nostr-tools/nip19';
import { describe, expect, test } from 'vitest';
import { createBuzzReader, readBuzzContext, toHexPubkey, verifyBuzzEnvelope } from '../src/index.js';
import { buildBuzzEnvelope, generateSecretKey, getPublicKey, signEvent } from '../src/host.js';
import { thrownBuzzError } from './support/thrown.js';

// NIP-19's own example key.
const NPUB = 'npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6';
const CHANNEL = '0b8f5a9e-3c41-4d2a-9e7f-2a1b3c4d5e6f';

/** Code, path and message of what `run` throws. */
function caught(run: () => unknown): [string, string, string] {
  const error = thrownBuzzError(run);
  return [error.code, error.path, error.message];
}

describe('toHexPubkey', () => {
  test('an empty string says the pubkey is empty', () => {
    expect(caught(() => toHexPubkey(''))).toEqual([
      'invalid_npub',
      '',
      'the pubkey is empty: give an npub or 64 hex digits',
    ]);
  });

  test.each([
    ['a leading space', ' ' + NPUB],
    ['a trailing newline', NPUB + '\n'],
    ['a leading tab before hex', '\t' + 'a'.repeat(64)],
  ])('%s is named as whitespace, not as a bad checksum', (_, input) => {
    expect(caught(() => toHexPubkey(input))).toEqual([
      'invalid_npub',
      '',
      'the pubkey starts or ends with whitespace; nothing is trimmed, so remove it (e.g. from the config file)',
    ]);
  });

  test.each([['nostr:' + NPUB], ['NOSTR:' + NPUB.toUpperCase()], ['nostr:']])(
    'a nostr: URI (%s) is told to drop the prefix',
    (input) => {
      expect(caught(() => toHexPubkey(input))).toEqual([
        'invalid_npub',
        '',
        'this is a nostr: URI, not a bare npub; drop the "nostr:" prefix and pass the npub1… part',
      ]);
    },
  );

  test('anything else malformed keeps the generic npub message', () => {
    expect(caught(() => toHexPubkey('npub1' + 'q'.repeat(58)))).toEqual([
      'invalid_npub',
      '',
      'not a valid npub (bad characters, mixed case or checksum)',
    ]);
  });
});

describe('an nsec where a pubkey goes', () => {
  const NSEC_MESSAGE =
    'this is an nsec, a secret key: never give it to an agent or share it; pin the npub instead ' +
    '(`buzz-meta keygen` prints both), and make a new key pair if the nsec was seen by anyone';

  test.each([
    ['an nsec', (nsec: string) => nsec],
    ['an nsec in upper case', (nsec: string) => nsec.toUpperCase()],
    ['an nsec with a typo', (nsec: string) => nsec.slice(0, -1) + (nsec.endsWith('q') ? 'p' : 'q')],
    ['an nsec with a trailing newline', (nsec: string) => nsec + '\n'],
    ['an nsec as a nostr: URI', (nsec: string) => 'nostr:' + nsec],
  ])('%s gets its own warning, and the message never echoes it', (_, paste) => {
    const nsec = nsecEncode(generateSecretKey());
    const error = thrownBuzzError(() => toHexPubkey(paste(nsec)));
    expect([error.code, error.path, error.message]).toEqual(['invalid_npub', '', NSEC_MESSAGE]);
    expect(error.message).not.toContain(nsec.slice(5, 15));
  });

  test('as agentPubkey: the same warning at /agentPubkey, from the reader and from a read', async () => {
    const nsec = nsecEncode(generateSecretKey());
    await expect(createBuzzReader({ agentPubkey: nsec })).rejects.toMatchObject({
      code: 'invalid_npub',
      path: '/agentPubkey',
      message: `/agentPubkey: ${NSEC_MESSAGE}`,
    });
    const read = readBuzzContext({ prompt: [] }, { agentPubkey: nsec });
    expect(read.ok ? null : [read.error.code, read.error.path, read.error.reason]).toEqual([
      'invalid_npub',
      '/agentPubkey',
      NSEC_MESSAGE,
    ]);
  });
});

describe('options that could accept nothing, and an empty key', () => {
  test("minTrust 'verified' without agentPubkey is refused at start, saying what to add", async () => {
    const expected = {
      code: 'invalid_option',
      path: '/agentPubkey',
      message:
        '/agentPubkey: minTrust "verified" needs agentPubkey: without the agent’s own npub nothing verifies, so every prompt would be refused',
    };
    await expect(createBuzzReader({ minTrust: 'verified' })).rejects.toMatchObject(expected);
    await expect(createBuzzReader({ minTrust: 'verified', scrape: false })).rejects.toMatchObject(expected);
    const read = readBuzzContext({ prompt: [] }, { minTrust: 'verified' });
    expect(read.ok ? null : read.error.message).toBe(expected.message);
  });

  test("an empty agentPubkey (an unset variable read with ?? '') says what to set", async () => {
    await expect(
      createBuzzReader({ agentPubkey: process.env.BUZZ_META_TEST_UNSET_VARIABLE ?? '', minTrust: 'verified' }),
    ).rejects.toMatchObject({
      code: 'invalid_option',
      path: '/agentPubkey',
      message:
        '/agentPubkey: agentPubkey is empty: set it to the agent’s own npub from configuration (e.g. BUZZ_AGENT_NPUB)',
    });
  });
});

describe('verifyBuzzEnvelope', () => {
  test('without options it throws invalid_option, not a TypeError', () => {
    const call = verifyBuzzEnvelope as (envelope: unknown, options?: unknown) => unknown;
    const expected = [
      'invalid_option',
      '',
      'verifyBuzzEnvelope needs options { agentPubkey }: the agent’s own pubkey from configuration',
    ];
    expect(caught(() => call({}))).toEqual(expected);
    expect(caught(() => call({}, null))).toEqual(expected);
    expect(caught(() => call({}, NPUB))).toEqual(expected);
  });

  test('options without agentPubkey say it is required', () => {
    const call = verifyBuzzEnvelope as (envelope: unknown, options: object) => unknown;
    expect(caught(() => call({}, {}))).toEqual([
      'invalid_option',
      '/agentPubkey',
      '/agentPubkey: agentPubkey is required: the agent’s own pubkey from configuration (64 hex digits or an npub)',
    ]);
  });
});

describe('buildBuzzEnvelope names the input field, not a wire path', () => {
  const agentSecretKey = generateSecretKey();
  const owner = generateSecretKey();
  const ownerPubkey = getPublicKey(owner);
  // Signed inside each test: nothing of src/ runs while vitest collects the file (docs/testing.md).
  const events = () => [
    signEvent({ kind: 9, created_at: 1_785_840_000, tags: [['h', CHANNEL]], content: 'hi' }, owner),
  ];

  test('an npub as ownerPubkey', () => {
    expect(
      caught(() => buildBuzzEnvelope({ agentSecretKey, channelId: CHANNEL, ownerPubkey: NPUB, events: events() })),
    ).toEqual([
      'invalid_option',
      '/ownerPubkey',
      '/ownerPubkey: ownerPubkey must be 64 lowercase hex digits (convert an npub with toHexPubkey)',
    ]);
  });

  test('an npub as a member pubkey', () => {
    const members = [
      { pubkey: ownerPubkey, role: 'owner' as const },
      { pubkey: NPUB, role: 'member' as const },
    ];
    expect(
      caught(() => buildBuzzEnvelope({ agentSecretKey, channelId: CHANNEL, ownerPubkey, members, events: events() })),
    ).toEqual([
      'invalid_option',
      '/members/1/pubkey',
      '/members/1/pubkey: a member pubkey must be 64 lowercase hex digits (convert an npub with toHexPubkey)',
    ]);
  });

  test.each([[CHANNEL.toUpperCase()], [CHANNEL.replaceAll('-', '')], [42]])('a channelId like %s', (channelId) => {
    expect(
      caught(() =>
        buildBuzzEnvelope({ agentSecretKey, channelId: channelId as string, ownerPubkey, events: events() }),
      ),
    ).toEqual(['invalid_option', '/channelId', '/channelId: channelId must be a lowercase, hyphenated UUID']);
  });
});
