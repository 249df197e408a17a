/**
 * The API reference (`npm run docs`, typedoc.json) renders every user guide as a document page,
 * not as a raw `.md` file: its `projectDocuments` are exactly the guides the package ships
 * (package.json `files`: every docs/*.md but the developer docs it excludes); and every export of
 * every entry point has an `@example` and a `@group` (the reference is grouped by task, in the
 * order of typedoc.json's `groupOrder`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const root = new URL('../../', import.meta.url);
const json = (path: string): unknown => JSON.parse(readFileSync(new URL(path, root), 'utf8'));

test('typedoc.json lists every shipped guide as a project document', () => {
  const { files } = json('package.json') as { files: string[] };
  const excluded = new Set(files.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1)));
  const guides = readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
    .filter((path) => !excluded.has(path));
  const { projectDocuments } = json('typedoc.json') as { projectDocuments: string[] };
  expect([...projectDocuments].sort()).toEqual(guides.sort());
});

/** Every export of every entry point, with the TSDoc tags of its declaration (or of its re-export). */
function exportedTags(): { name: string; tags: string[] }[] {
  const { entryPoints } = json('typedoc.json') as { entryPoints: string[] };
  const files = entryPoints.map((entry) => fileURLToPath(new URL(entry, root)));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  const checker = program.getTypeChecker();
  return files.flatMap((file) => {
    const source = program.getSourceFile(file);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${file}: no module symbol`);
    return checker.getExportsOfModule(module).map((symbol) => {
      const reexport = symbol.declarations?.find(ts.isExportSpecifier)?.parent.parent;
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const nodes = [...(reexport === undefined ? [] : [reexport]), ...(target.declarations ?? [])];
      const tags = nodes.flatMap((node) =>
        ts.getJSDocTags(node).map((tag) => `@${tag.tagName.text} ${commentText(tag)}`),
      );
      return { name: `${path.relative(fileURLToPath(root), file)}: ${symbol.name}`, tags };
    });
  });
}

function commentText(tag: ts.JSDocTag): string {
  return (typeof tag.comment === 'string' ? tag.comment : (ts.getTextOfJSDocComment(tag.comment) ?? '')).trim();
}

test('every export has an @example and a @group the reference orders', () => {
  const { groupOrder } = json('typedoc.json') as { groupOrder: string[] };
  const exports = exportedTags();
  expect(exports.length).toBeGreaterThanOrEqual(112);
  expect(exports.filter(({ tags }) => !tags.some((tag) => tag.startsWith('@example ')))).toEqual([]);
  expect(
    exports.filter(({ tags }) => !tags.some((tag) => tag.startsWith('@group ') && groupOrder.includes(tag.slice(7)))),
  ).toEqual([]);
});
