/**
 * The README's first hour stays true: its code blocks are examples/read-one-prompt.ts (run here on
 * a signed, a tampered and a draft prompt), examples/first-agent.ts and its host side
 * examples/first-host.ts (package names in the imports; both run by
 * test/examples/first-agent.test.ts); the first screen has exactly the two set-up commands; no
 * line is wider than 100 columns; and no relative link is dead in the packed package.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { whoSent } from '../../examples/read-one-prompt.js';
import { signEvent, withBuzzEnvelope } from '../../src/host.js';
import { AGENT, OWNER } from '../support/keys.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');
const pkg = JSON.parse(read('package.json')) as { files: string[] };

/** Bodies of the fenced blocks of `markdown` with this info string, in order. */
function blocks(markdown: string, info: string): string[] {
  return markdown
    .split('```' + info + '\n')
    .slice(1)
    .map((rest) => rest.slice(0, rest.indexOf('```')));
}

/** The part of an example file the README shows, with the package's import names. */
function snippet(path: string): string {
  const text = read(path);
  return text
    .slice(text.indexOf('// --- snippet ---\n') + '// --- snippet ---\n'.length)
    .replace("from '../src/index.js'", "from 'buzz-meta'")
    .replace("from '../src/acp/index.js'", "from 'buzz-meta/acp'")
    .replace("from '../src/host.js'", "from 'buzz-meta/host'");
}

describe('README.md', () => {
  it('shows examples/read-one-prompt.ts, examples/first-agent.ts, then examples/first-host.ts', () => {
    expect(blocks(readme, 'ts').slice(0, 3)).toEqual([
      snippet('examples/read-one-prompt.ts'),
      snippet('examples/first-agent.ts'),
      snippet('examples/first-host.ts'),
    ]);
  });

  it('opens with exactly two set-up commands, before the first section', () => {
    const firstScreen = readme.slice(0, readme.indexOf('\n## '));
    expect(blocks(firstScreen, 'sh')).toEqual([
      'npm install && npm run demo\nnpm install && npm run build && npm test\n',
    ]);
  });

  it('has no line wider than 100 columns', () => {
    expect(readme.split('\n').filter((line) => line.length > 100)).toEqual([]);
  });

  it('links only to anchors, absolute URLs, or files the package ships', () => {
    const shipped = (target: string): boolean =>
      existsSync(new URL(`../../${target}`, import.meta.url)) &&
      pkg.files.some((pattern) =>
        pattern.includes('*')
          ? new RegExp(`^${pattern.replaceAll('.', '\\.').replace('*', '[^/]+')}$`).test(target)
          : target === pattern || target.startsWith(`${pattern}/`),
      );
    const relative = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((match) => match[1] ?? '')
      .filter((target) => !/^[a-z]+:/.test(target));
    expect(relative.length).toBeGreaterThan(5);
    expect(relative.filter((target) => !shipped(target))).toEqual([]);
  });
});

describe("the README's read-one-prompt snippet", () => {
  const channelId = '7c1d4e2a-9b3f-4c8e-a1d6-5f2b8e9c0a34';
  const event = signEvent(
    { kind: 9, created_at: 1_760_000_000, tags: [['h', channelId]], content: 'hi' },
    OWNER.secretKey,
  );
  const input = { agentSecretKey: AGENT.secretKey, channelId, ownerPubkey: OWNER.pubkey, events: [event] };
  const signed = withBuzzEnvelope({ sessionId: 's1', prompt: [{ type: 'text', text: 'hi' }] }, input);

  it('names the sender and channel of a signed prompt, verified', () => {
    expect(whoSent(signed, AGENT.npub)).toBe(`verified: ${OWNER.pubkey} wrote in channel ${channelId}`);
  });

  it('refuses a prompt whose envelope was changed after signing, with its code', () => {
    const { buzz } = signed._meta;
    const tampered = { ...signed, _meta: { buzz: { ...buzz, channelId: '00000000-0000-4000-8000-000000000000' } } };
    expect(whoSent(tampered, AGENT.npub)).toBe('refused: payload_hash_mismatch');
  });
});
