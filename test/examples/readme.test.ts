/**
 * The README's first hour stays true: its first example is examples/first-agent.ts and its host
 * side examples/first-host.ts (package names in the imports), both run by
 * test/examples/first-agent.test.ts; the first screen has exactly the two set-up commands; and
 * no relative link is dead in the packed package.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

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
  it('shows examples/first-agent.ts, then examples/first-host.ts', () => {
    expect(blocks(readme, 'ts').slice(0, 2)).toEqual([
      snippet('examples/first-agent.ts'),
      snippet('examples/first-host.ts'),
    ]);
  });

  it('opens with exactly two set-up commands, before the first section', () => {
    const firstScreen = readme.slice(0, readme.indexOf('\n## '));
    expect(blocks(firstScreen, 'sh')).toEqual(['npm ci && npm run demo\nnpm ci && npm test\n']);
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
