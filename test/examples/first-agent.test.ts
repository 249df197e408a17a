/**
 * The README's first example runs as pasted: examples/first-host.ts starts
 * examples/first-agent.ts as a child process and gets `end_turn` for a signed delivery.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('examples/first-agent.ts and examples/first-host.ts', () => {
  it('the host prints end_turn; the agent logged its turn to stderr', { timeout: 30_000 }, async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'examples/first-host.ts'],
      {
        cwd: root,
        timeout: 30_000,
      },
    );
    expect(stdout).toBe('end_turn\n');
    expect(stderr).toBe('turn 1 of this sender\n');
  });
});
