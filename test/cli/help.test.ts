/**
 * The help of the command and of every subcommand, exactly (test/fixtures/cli-help.txt): what a
 * user reads first, and the only place the subcommands' descriptions and option texts show.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { runCli } from './run.js';

const expected = readFileSync(new URL('../fixtures/cli-help.txt', import.meta.url), 'utf8');

test('--help of the command and of each subcommand, as recorded', async () => {
  const parts: string[] = [];
  for (const command of [[], ['inspect'], ['verify'], ['keygen'], ['npub'], ['hex'], ['proxy']]) {
    const run = await runCli([...command, '--help']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    parts.push(`=== buzz-meta ${[...command, '--help'].join(' ')}\n${run.stdout}`);
  }
  expect(parts.join('')).toBe(expected);
});
