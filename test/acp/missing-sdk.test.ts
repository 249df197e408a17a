/**
 * `buzz-meta/acp` where its optional peer `@agentclientprotocol/sdk` is not installed: the entry
 * point still imports, and the first call that needs the SDK says what to install, instead of a
 * bare `ERR_MODULE_NOT_FOUND` from inside the package. Run on the built package (`npm run build`
 * first) in a scratch `node_modules` that holds it and its dependencies, but not the SDK.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** A project whose node_modules holds buzz-meta (package.json and dist/) and what it depends on, but no ACP SDK. */
function projectWithoutSdk(): string {
  const project = mkdtempSync(join(tmpdir(), 'buzz-meta-no-sdk-'));
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, 'buzz-meta'), { recursive: true });
  cpSync(join(repo, 'package.json'), join(modules, 'buzz-meta', 'package.json'));
  cpSync(join(repo, 'dist'), join(modules, 'buzz-meta', 'dist'), { recursive: true });
  mkdirSync(join(modules, '@noble'));
  for (const name of ['nostr-tools', 'nostr-wasm', 'zod', '@noble/curves', '@noble/hashes']) {
    symlinkSync(join(repo, 'node_modules', name), join(modules, name), 'dir');
  }
  writeFileSync(join(project, 'package.json'), '{"type":"module"}');
  return project;
}

test('import succeeds; childStream names the package to install', { timeout: 30_000 }, async () => {
  const project = projectWithoutSdk();
  const script = [
    "import { PassThrough } from 'node:stream';",
    "const acp = await import('buzz-meta/acp');",
    'console.log(Object.keys(acp).sort().join(","));',
    'try { acp.childStream({ stdin: new PassThrough(), stdout: new PassThrough() }); }',
    'catch (error) { console.log(error.message); }',
  ].join('\n');
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: project,
  });
  expect(stdout).toBe(
    'BUZZ_OUTCOME_META_KEY,buzzHandlers,childStream,connectStdio,nodeStream\n' +
      'buzz-meta/acp needs its optional peer dependency @agentclientprotocol/sdk (2.4 or later): ' +
      'npm install @agentclientprotocol/sdk\n',
  );
});
