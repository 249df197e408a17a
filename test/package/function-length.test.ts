/**
 * No function, method or arrow function in src/ runs longer than 80 lines (from its first line to
 * its last, comments included): a longer one does several things, which get names of their own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const MAX_LINES = 80;
const src = new URL('../../src/', import.meta.url);

/** Every function-like node of `file` as `file:line name (N lines)`, longest first. */
function functionsOf(file: string): { readonly where: string; readonly lines: number }[] {
  const text = readFileSync(new URL(file, src), 'utf8');
  const tree = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: { readonly where: string; readonly lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line;
      const last = tree.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name !== undefined && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
      found.push({ where: `src/${file}:${String(first + 1)} ${name}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

describe('function length in src/', () => {
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  const functions = files.flatMap(functionsOf);

  test('the reader finds the functions (the longest is a real one)', () => {
    expect(functions.length).toBeGreaterThan(300);
    expect(Math.max(...functions.map((f) => f.lines))).toBeGreaterThan(40);
  });

  test(`none runs longer than ${String(MAX_LINES)} lines`, () => {
    expect(functions.filter((f) => f.lines > MAX_LINES).map((f) => `${f.where} (${String(f.lines)} lines)`)).toEqual(
      [],
    );
  });
});
