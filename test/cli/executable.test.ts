/**
 * What a shell sees of the real `buzz-meta` executable (from source, through tsx): the exit code
 * and one line on stderr, and a reader that closes the pipe early (`| head`) ending the output
 * quietly. Child processes, so the mutation run leaves this file out (vitest.mutation.config.ts).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { AGENT } from '../support/keys.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const CAPTURE = fixture('acp-capture.ndjson');
const captureLines = readFileSync(CAPTURE, 'utf8').trimEnd().split('\n');

describe('the real executable', () => {
  test('a shell sees the exit code and one line on stderr', { timeout: 30_000 }, async () => {
    const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
    const run = promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      bin,
      'verify',
      CAPTURE,
      '--agent-pubkey',
      AGENT.npub,
    ]);
    await expect(run).rejects.toMatchObject({ code: 1, stderr: '' });
    const bad = promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      bin,
      'inspect',
      fixture('acp-capture.inspect.txt'),
    ]);
    await expect(bad).rejects.toMatchObject({
      code: 2,
      stderr: 'buzz-meta: line 1, column 1: not JSON (plain text)\n',
    });
  });

  test('a reader that closes the pipe early (| head) ends the output quietly', { timeout: 30_000 }, async () => {
    const big = join(mkdtempSync(join(tmpdir(), 'buzz-meta-epipe-')), 'big.ndjson');
    writeFileSync(big, `${captureLines.join('\n')}\n`.repeat(3000));
    const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', bin, 'inspect', big, '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});
