/**
 * `npm run demo` end to end: a host process, a real ACP agent child process on stdio, seven
 * deliveries. Runs the demo exactly as the script does and checks what it prints.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The demo spawns a second Node process with tsx; both start cold. */
const DEMO_TIMEOUT_MS = 60_000;

describe('examples/demo.ts', () => {
  it('exits 0 and prints every delivery with the expected answer', { timeout: DEMO_TIMEOUT_MS }, async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
      timeout: DEMO_TIMEOUT_MS,
    });
    const rows = stdout
      .split('\n')
      .filter((line) => /^ {2}\d {2}/.test(line))
      .map((line) => line.trim().split(/\s{2,}/));
    expect(rows).toEqual([
      ['1', 'signed v1 envelope', 'verified (envelope-v1)', 'yes'],
      ['2', 'signed thread reply, 2 senders', 'verified (envelope-v1)', 'yes'],
      ['3', 'tampered text', 'rejected: payload_hash_mismatch', 'yes'],
      ['4', 'attested by another key', 'rejected: signer_mismatch', 'yes'],
      ['5', "another key claiming the agent's", 'rejected: attestation_signature_invalid', 'yes'],
      ['6', 'unsigned draft shape', 'asserted (meta-draft)', 'yes'],
      ['7', 'no _meta.buzz', 'rejected: no_buzz_context', 'yes'],
    ]);
    expect(stdout).toMatch(/^ {7}partitions buzz:channel:[0-9a-f-]{36} {2}\| {2}buzz:pubkey:[0-9a-f]{12}…$/m);
    expect(stdout).toMatch(/^ {7}sender {5}npub1[0-9a-z]{7}…[0-9a-z]{6} {2}buzz:pubkey:[0-9a-f]{12}…$/m);
    expect(stdout).toContain(
      "       note       2 distinct senders in this delivery; attributed to the last event's sender\n",
    );
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('7/7 deliveries answered as expected');
    // The agent's own log goes to the demo's stderr only when something failed.
    expect(stderr).toBe('');
  });
});
