/**
 * The README's first screen stays true: its prompt handler is the type-checked
 * examples/prompt-handler.ts (with the package name in the import), it fits in 15 lines, and
 * the set-up commands are exactly the two CI and readers rely on.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');

/** The body of the first fenced block in `markdown` with this info string. */
function firstBlock(markdown: string, info: string): string {
  const start = markdown.indexOf('```' + info + '\n');
  if (start < 0) return '';
  const body = start + info.length + 4;
  return markdown.slice(body, markdown.indexOf('```', body));
}

describe('README.md', () => {
  it('shows examples/prompt-handler.ts as its prompt handler, importing buzz-meta', () => {
    const example = read('examples/prompt-handler.ts');
    const snippet = example.slice(example.indexOf('// --- snippet ---\n') + '// --- snippet ---\n'.length);
    expect(firstBlock(readme, 'ts')).toBe(snippet.replace("from '../src/index.js'", "from 'buzz-meta'"));
  });

  it('keeps the prompt handler within 15 lines', () => {
    expect(firstBlock(readme, 'ts').trimEnd().split('\n').length).toBeLessThanOrEqual(15);
  });

  it('gives the install command, then exactly two set-up commands for a fresh clone', () => {
    const blocks = readme
      .split('```sh\n')
      .slice(1)
      .map((rest) => rest.slice(0, rest.indexOf('```')));
    expect(blocks).toEqual(['npm install buzz-meta zod\n', 'npm ci && npm run demo\nnpm ci && npm test\n']);
  });
});
