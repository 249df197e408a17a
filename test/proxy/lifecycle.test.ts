/**
 * How `buzz-meta proxy` starts and ends: the host's end of input ends the agent and the proxy
 * (exit 0); a signal to the proxy reaches the agent and its exit code becomes the proxy's; an agent
 * that cannot start is the shell's 127; bad options are one stderr line and exit 2 before any
 * agent starts.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { BIN, spawnProxied, startProxied } from './support/proxied.js';

describe('buzz-meta proxy lifecycle', () => {
  test('the host closing its side ends the agent, then the proxy, with code 0', async () => {
    const proxied = await startProxied([]);
    expect(await proxied.stop()).toBe(0);
    expect(proxied.stderr()).toBe('');
  }, 30_000);

  test('SIGTERM to the proxy reaches the agent; the proxy exits with 128 + 15', async () => {
    const proxied = await spawnProxied([]);
    proxied.signal('SIGTERM');
    expect(await proxied.exited).toBe(143);
    expect(proxied.stderr()).toBe('buzz-meta proxy: the agent was ended by SIGTERM\n');
  }, 30_000);

  test('an agent command that does not exist: one stderr line, exit 127', async () => {
    const child = spawn(process.execPath, [BIN, 'proxy', '--', '/nonexistent/agent', '--flag'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    expect((await once(child, 'close'))[0]).toBe(127);
    expect(stderr).toBe('buzz-meta proxy: the agent could not be started (ENOENT): /nonexistent/agent\n');
  }, 30_000);

  test.each([
    [['--limits', 'nope'], 'buzz-meta: --limits: not JSON (give an object, e.g. \'{"maxEvents":20}\')\n'],
    [['--limits', '[1]'], 'buzz-meta: --limits: not a JSON object\n'],
    [['--limits', '{"maxEvents":0}'], 'buzz-meta: proxy: /limits/maxEvents: a limit must be a positive integer\n'],
    [['--key-prefix', 'a b'], 'buzz-meta: --key-prefix: 1–64 letters, digits, "_", ".", ":" or "-"\n'],
    [['--max-line-bytes', '10'], 'buzz-meta: --max-line-bytes: a whole number of bytes, at least 1024\n'],
    [['--dedup', 'disk'], 'buzz-meta: --dedup: "memory" or a redis:// (rediss://) URL\n'],
    [['--dedup-prefix', 'x:'], 'buzz-meta: --dedup-prefix needs --dedup redis://…\n'],
    [['--dedup-fail-closed'], 'buzz-meta: --dedup-fail-closed needs --dedup\n'],
    [
      ['--agent-pubkey', 'npub1nope'],
      'buzz-meta: --agent-pubkey: not a valid npub (bad characters, mixed case or checksum)\n',
    ],
  ])('bad options %j: one stderr line, exit 2, no agent started', async (options, message) => {
    let stderr = '';
    let stdout = '';
    const code = await main(['proxy', ...options, '--', '/nonexistent/agent'], {
      writeOut: (text) => (stdout += String(text)),
      writeErr: (text) => (stderr += text),
      openStdin: () => null,
      env: {},
      relayStdio: () => ({ stdin: new PassThrough(), stdout: new PassThrough(), agentStderr: 'inherit' }),
    });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(message);
  });
});
