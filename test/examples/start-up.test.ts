/**
 * The examples at start-up: a missing, malformed or secret key (and a bad allowlist entry) stops
 * each agent at once with one line on stderr and exit code 1, never a stack trace; the README's
 * host, when a request fails, prints one line, exits 1 and leaves no agent running (an agent that
 * ignores the end of its stdin, stood in by test/examples/support/stuck-agent.mjs).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nsecEncode } from 'nostr-tools/nip19';
import { describe, expect, test } from 'vitest';
import { AGENT } from '../support/keys.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `examples/<name>.ts` with `env` (and no key of the test's own environment); its exit code and output. */
function run(name: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('BUZZ_AGENT_')));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `examples/${name}.ts`],
      { cwd: root, env: { ...inherited, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
      },
    );
  });
}

const EMPTY =
  '/agentPubkey: agentPubkey is empty: set it to the agent’s own npub from configuration (e.g. BUZZ_AGENT_NPUB)';
const BAD_NPUB = '/agentPubkey: not a valid npub (bad characters, mixed case or checksum)';

describe('a misconfigured example agent stops at start-up: one line, exit 1', () => {
  // The other agents start up through the same examples/start-up.ts.
  test('an empty key, an nsec, a bad npub, a bad allowlist entry', { timeout: 60_000 }, async () => {
    const nsec = nsecEncode(AGENT.secretKey);
    const cases: [string, Record<string, string>, string][] = [
      ['first-agent', {}, `my-agent: ${EMPTY}`],
      [
        'first-agent',
        { BUZZ_AGENT_NPUB: nsec },
        'my-agent: /agentPubkey: this is an nsec, a secret key: never give it to an agent or share it; pin the npub ' +
          'instead (`buzz-meta keygen` prints both), and make a new key pair if the nsec was seen by anyone',
      ],
      [
        'authz-agent',
        { BUZZ_AGENT_NPUB: AGENT.npub, BUZZ_ALLOWED_NPUBS: 'npub1typo' },
        'authz-agent: not a valid npub (bad characters, mixed case or checksum)',
      ],
      ['bridge', { BUZZ_AGENT_NPUB: 'npub1bad' }, `bridge: ${BAD_NPUB}`],
      // The key is checked before Redis is dialled: no REDIS_URL needed to hear about it.
      ['pooled-agent', {}, `pooled-agent: ${EMPTY}`],
    ];
    const runs = await Promise.all(cases.map(([name, env]) => run(name, env)));
    expect(runs).toEqual(cases.map(([, , line]) => ({ code: 1, stdout: '', stderr: `${line}\n` })));
  });
});

describe('examples/first-host.ts when a request fails', () => {
  test('one line, exit 1, and the agent it started is not left running', { timeout: 60_000 }, async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'buzz-meta-host-')), 'agent.pid');
    const preload = new URL('support/stuck-agent.mjs', import.meta.url).href;
    const host = await run('first-host', { NODE_OPTIONS: `--import=${preload}`, BUZZ_META_TEST_PID_FILE: pidFile });
    expect(host).toEqual({ code: 1, stdout: '', stderr: 'my-host: Internal error\n' });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
  });
});

/** Whether process `pid` still runs (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
