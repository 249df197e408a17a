/**
 * No module of src/ exports a name for the tests' sake: every name a module exports is imported (or
 * re-exported) by another module of src/, or by the build's generators in scripts/ (the JSON
 * Schemas the package ships are written from src/). The package faces are exempt (their exports
 * are the package's API), and the public vocabulary counts as used because the faces re-export it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const root = new URL('../../', import.meta.url);

interface Manifest {
  readonly exports: Readonly<Record<string, string | { readonly default: string }>>;
  readonly bin: Readonly<Record<string, string>>;
}
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as Manifest;

/** The modules package.json `exports` and `bin` point at (`dist/x.js` is built from `src/x.ts`). */
const FACES = new Set(
  [
    ...Object.values(manifest.exports).map((target) => (typeof target === 'string' ? target : target.default)),
    ...Object.values(manifest.bin),
  ]
    .filter((target) => /^(?:\.\/)?dist\/.*\.js$/.test(target))
    .map((target) => target.replace(/^(?:\.\/)?dist\//, 'src/').replace(/\.js$/, '.ts')),
);

interface Module {
  /** Names the module exports, declared in it or re-exported from another module. */
  readonly exported: string[];
  /** Names taken from other modules, as `target#name` (paths relative to the repository). */
  readonly taken: string[];
}

const hasExport = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The module a relative specifier of `file` names (`.js` written for `.ts`). */
function targetOf(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return path.posix.join(path.posix.dirname(file), specifier.replace(/\.js$/, '.ts'));
}

/** The names `const { a, b } = await import('./x.js')` takes, as `target#name`. */
function dynamicImports(file: string, tree: ts.SourceFile): string[] {
  const taken: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer !== undefined) {
      const call = ts.isAwaitExpression(node.initializer) ? node.initializer.expression : node.initializer;
      const [argument] =
        ts.isCallExpression(call) && call.expression.kind === ts.SyntaxKind.ImportKeyword ? call.arguments : [];
      const target = argument !== undefined && ts.isStringLiteral(argument) ? targetOf(file, argument.text) : undefined;
      if (target !== undefined) {
        for (const element of node.name.elements) {
          const name = element.propertyName ?? element.name;
          if (ts.isIdentifier(name)) taken.push(`${target}#${name.text}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return taken;
}

/** What `file` exports and what it takes from other modules, read from its syntax tree. */
function read(file: string): Module {
  const text = readFileSync(new URL(file, root), 'utf8');
  const tree = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const exported: string[] = [];
  const taken: string[] = [];
  for (const node of tree.statements) {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
        ? targetOf(file, node.moduleSpecifier.text)
        : undefined;
    if (ts.isImportDeclaration(node) && specifier !== undefined) {
      const bindings = node.importClause?.namedBindings;
      if (bindings !== undefined && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          taken.push(`${specifier}#${(element.propertyName ?? element.name).text}`);
        }
      }
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      if (clause !== undefined && ts.isNamedExports(clause)) {
        for (const element of clause.elements) {
          exported.push(element.name.text);
          if (specifier !== undefined) taken.push(`${specifier}#${(element.propertyName ?? element.name).text}`);
        }
      }
    } else if (hasExport(node)) {
      if (ts.isVariableStatement(node)) {
        for (const declaration of node.declarationList.declarations) exported.push(declaration.name.getText(tree));
      } else if (
        (ts.isFunctionDeclaration(node) ||
          ts.isClassDeclaration(node) ||
          ts.isInterfaceDeclaration(node) ||
          ts.isTypeAliasDeclaration(node) ||
          ts.isEnumDeclaration(node)) &&
        node.name !== undefined
      ) {
        exported.push(node.name.text);
      }
    }
  }
  return { exported, taken: [...taken, ...dynamicImports(file, tree)] };
}

/** The TypeScript files under `folder`, as paths relative to the repository. */
const filesUnder = (folder: string): string[] =>
  readdirSync(new URL(folder, root), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => `${folder}/${file.split(path.sep).join('/')}`);

describe('exports of src/', () => {
  const modules = new Map(filesUnder('src').map((file) => [file, read(file)]));
  const generators = filesUnder('scripts').map(read);

  test('the reader sees every kind of export and import, and every face', () => {
    expect([...FACES].sort()).toEqual([
      'src/acp/index.ts',
      'src/cli/bin.ts',
      'src/host.ts',
      'src/index.ts',
      'src/redis.ts',
      'src/testing.ts',
    ]);
    expect(modules.get('src/index.ts')?.exported).toContain('readBuzzContext');
    expect(modules.get('src/read/read.ts')?.exported).toContain('readBuzzContext');
    expect(modules.get('src/index.ts')?.taken).toContain('src/read/read.ts#readBuzzContext');
    expect(modules.get('src/cli/main.ts')?.taken).toContain('src/cli/keygen.ts#keygen');
    expect(generators.flatMap((module) => module.taken)).toContain('src/envelope/schema.ts#envelopeSchema');
  });

  test('every name a non-face module exports is imported by another module of src/ or scripts/', () => {
    const taken = new Set([...modules.values(), ...generators].flatMap((module) => module.taken));
    const unused = [...modules]
      .filter(([file]) => !FACES.has(file))
      .flatMap(([file, module]) => module.exported.map((name) => `${file}#${name}`))
      .filter((name) => !taken.has(name));
    expect(unused).toEqual([]);
  });
});
