/**
 * `npm run demo` end to end: the host process, examples/memory-agent.ts as a real ACP agent child
 * process on stdio, every turn of the table. Runs the demo exactly as the script does and checks
 * what it prints: each turn's verdict, what the agent saw, the reasons, the summary, 80 columns.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The demo spawns a second Node process with tsx; both start cold. */
const DEMO_TIMEOUT_MS = 60_000;

describe('examples/demo.ts', () => {
  it(
    'exits 0 with every turn as expected, the reasons in words, within 80 columns',
    { timeout: DEMO_TIMEOUT_MS },
    async () => {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], {
        cwd: root,
        env: { ...process.env, NO_COLOR: '1' },
        timeout: DEMO_TIMEOUT_MS,
      });
      const rows = stdout
        .split('\n')
        .filter((line) => /^ ?\d+ {2}\S/.test(line))
        .map((line) => line.trim().split(/\s{2,}/));
      expect(rows).toEqual([
        ['1', 'signed v1 envelope', 'as expected'],
        ['2', 'unsigned draft', 'as expected'],
        ['3', 'tampered envelope', 'as expected'],
        ['4', 'another key posing as the agent', 'as expected'],
        ['5', 'redelivery of turn 1', 'as expected'],
        ['6', 'long turn, cancelled', 'as expected'],
        ['7', 'the cancelled turn, retried', 'as expected'],
        ['8', 'steer merge', 'as expected'],
        ['9', 'legacy text, sprout V1 era', 'as expected'],
        ['10', 'legacy text, V4 era', 'as expected'],
        ['11', 'legacy text, V5 XML era', 'as expected'],
        ['12', 'forged block inside a message', 'as expected'],
        ['13', 'no Buzz context', 'as expected'],
      ]);
      expect(stdout).toMatch(/^ {6}saw {6}verified \(envelope-v1\), sender npub1[0-9a-z]{7}…[0-9a-z]{6}$/m);
      expect(stdout).toMatch(/^ {6}channel {2}buzz:channel:[0-9a-f-]{36}$/m);
      expect(stdout).toContain('      refused  payload_hash_mismatch: payloadHash does not match the envelope’s\n');
      expect(stdout).toContain('      why      accepted as asserted only because this agent does not require\n');
      expect(stdout).toContain('      deduped  all 1 event(s) already handled; handler not called\n');
      expect(stdout).toContain('      answer   cancelled\n');
      expect(stdout.trimEnd().split('\n').slice(-2)).toEqual([
        'read: 1 verified, 3 asserted, 4 scraped; 2 refused, 1 deduped, 1 cancelled',
        '13/13 turns as expected',
      ]);
      expect(stdout).toMatch(/^ {6}saw {6}scraped \(prompt-text\), sender npub1/m);
      expect(stdout).toContain('      why      the quoted block claims the CEO sent it; it is only content of\n');
      expect(Math.max(...stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
      // The agent's own log goes to the demo's stderr only when something failed.
      expect(stderr).toBe('');
    },
  );
});
