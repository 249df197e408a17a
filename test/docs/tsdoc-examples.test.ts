/**
 * Every `@example` in src/ type-checks under the repo's own compiler options (strict,
 * `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`, NodeNext): the examples are what
 * users paste, and one that does not compile teaches them the wrong thing.
 *
 * Each example becomes one module in a scratch folder: its `import` lines at the top, the rest
 * inside an async function whose parameters are the names examples use without defining them
 * (`params`, `ctx`, …; typed below) and does not import, in a nested block so an example may
 * shadow them. An example
 * without imports gets every export of `buzz-meta` and `buzz-meta/host`, as the reference pages
 * show them. `buzz-meta/*` maps to src/, so no build is needed. One tsc run checks them all.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import * as root from '../../src/index.js';
import * as host from '../../src/host.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const src = path.join(repo, 'src');

/** Names examples use without defining them, and their types. */
const SCOPE: Readonly<Record<string, string>> = {
  params: 'PromptRequest',
  ctx: 'BuzzContext',
  context: 'BuzzContext',
  agentPubkey: 'string',
  agentSecretKey: 'Uint8Array',
  ownerKey: 'Uint8Array',
  ownerPubkey: 'string',
  channelId: 'string',
  sessionId: 'string',
  prompt: 'ContentBlock[]',
  events: 'NostrEvent[]',
  signedEvent: 'NostrEvent',
  envelope: 'BuzzEnvelopeV1',
  channel: "BuzzEnvelopeV1['channel']",
  other: 'string',
  id: 'string',
  rootId: 'string',
  agent: 'ClientContext',
  memory: '{ partition(key: string): void }',
  handle: '(event: BuzzEvent) => Promise<void>',
  refuse: '(code: string) => PromptResponse',
  reject: '() => never',
};

const TYPES =
  "import type { ClientContext, ContentBlock, PromptRequest, PromptResponse } from '@agentclientprotocol/sdk';\n" +
  "import type { BuzzContext, BuzzEvent } from 'buzz-meta';\n" +
  "import type { BuzzEnvelopeV1, NostrEvent } from 'buzz-meta/host';\n";

interface Example {
  readonly file: string;
  readonly line: number;
  readonly code: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

/** The ```ts block of every `@example` tag (an example without one is reported as empty). */
function examplesOf(file: string): Example[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const examples: Example[] = [];
  lines.forEach((line, index) => {
    if (!/^\s*\* @example\s*$/.test(line)) return;
    const open = lines.findIndex((l, i) => i > index && /^\s*\* ```/.test(l));
    const close = open < 0 ? -1 : lines.findIndex((l, i) => i > open && /^\s*\* ```\s*$/.test(l));
    const fenced = open >= 0 && close > open && /^\s*\* ```ts\s*$/.test(lines[open] ?? '');
    const body = fenced ? lines.slice(open + 1, close).map((l) => l.replace(/^\s*\* ?/, '')) : [];
    examples.push({ file: path.relative(repo, file), line: index + 1, code: body.join('\n') });
  });
  return examples;
}

/** One module per example: imports first, the rest in a function over {@link SCOPE}. */
function moduleOf(example: Example): string {
  const lines = example.code.split('\n');
  const imports = lines.filter((line) => line.startsWith('import '));
  const body = lines.filter((line) => !line.startsWith('import '));
  const given =
    imports.length > 0
      ? imports
      : [
          `import { ${Object.keys(root).join(', ')} } from 'buzz-meta';`,
          `import { ${Object.keys(host)
            .filter((name) => !(name in root))
            .join(', ')} } from 'buzz-meta/host';`,
        ];
  // A name the example imports is not a parameter (it would shadow the import).
  const imported = new Set(imports.join(' ').match(/[\w$]+/g) ?? []);
  const parameters = Object.entries(SCOPE)
    .filter(([name]) => !imported.has(name))
    .map(([name, type]) => `${name}: ${type}`)
    .join(', ');
  return [
    `// ${example.file}:${String(example.line)}`,
    ...given,
    TYPES,
    `export async function example(${parameters}): Promise<unknown> {`,
    '{',
    ...body,
    '}',
    'return undefined;',
    '}',
    '',
  ].join('\n');
}

const examples = sourceFiles(src)
  .sort()
  .flatMap((file) => examplesOf(file));
const scratch = mkdtempSync(path.join(tmpdir(), 'buzz-meta-tsdoc-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('TSDoc @example blocks', () => {
  test('every @example holds a ```ts block', () => {
    expect(examples.length).toBeGreaterThanOrEqual(31);
    expect(examples.filter((example) => example.code.trim() === '').map((e) => `${e.file}:${String(e.line)}`)).toEqual(
      [],
    );
  });

  test('every example type-checks under the repo tsconfig (one tsc run)', () => {
    symlinkSync(path.join(repo, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
    writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    const names = examples.map((example, index) => {
      const name = `example-${String(index).padStart(2, '0')}.ts`;
      writeFileSync(path.join(scratch, name), moduleOf(example));
      return name;
    });
    writeFileSync(
      path.join(scratch, 'tsconfig.json'),
      JSON.stringify({
        extends: path.join(repo, 'tsconfig.json'),
        compilerOptions: {
          noEmit: true,
          paths: {
            'buzz-meta': [path.join(src, 'index.ts')],
            'buzz-meta/acp': [path.join(src, 'acp/index.ts')],
            'buzz-meta/*': [path.join(src, '*.ts')],
          },
        },
        include: names,
      }),
    );
    const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');
    const run = spawnSync(process.execPath, [tsc, '-p', scratch, '--pretty', 'false'], { encoding: 'utf8' });
    // Each error names the generated file; its first line says which source example it came from.
    const errors = run.stdout
      .split('\n')
      .filter((line) => line.includes('error TS'))
      .map((line) => {
        const name = path.basename(line.slice(0, line.indexOf('(')));
        const origin = names.includes(name) ? readFileSync(path.join(scratch, name), 'utf8').split('\n')[0] : '';
        return `${origin ?? ''} ${line}`;
      });
    expect(errors).toEqual([]);
    expect(run.status).toBe(0);
  }, 120_000);
});
