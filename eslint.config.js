// ESLint flat config for buzz-meta. Run with `npm run lint` (zero warnings allowed).
//
// - typescript-eslint `strict` + `stylistic`, both type-checked, over every TS file.
// - eslint-plugin-regexp `recommended` plus `no-super-linear-move`: the scraper reads hostile
//   text, so a regex that can backtrack (or scan) super-linearly is an error, not a style issue.
// - TSDoc on every export of `src/` (eslint-plugin-jsdoc for presence, eslint-plugin-tsdoc for
//   syntax), so the generated API reference has no blank entries.
// Formatting is prettier's job (`npm run format:check`); no stylistic formatting rules here.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import jsdoc from 'eslint-plugin-jsdoc';
import regexp from 'eslint-plugin-regexp';
import tsdoc from 'eslint-plugin-tsdoc';
import tseslint from 'typescript-eslint';

/** Declarations that must carry a TSDoc comment when exported from `src/`. */
const documentedContexts = [
  'ClassDeclaration',
  'FunctionDeclaration',
  'TSInterfaceDeclaration',
  'TSTypeAliasDeclaration',
  'TSEnumDeclaration',
  'TSDeclareFunction',
  // `export const x = ...` (the comment sits on the export statement)
  'ExportNamedDeclaration > VariableDeclaration',
];

export default defineConfig(
  globalIgnores(['dist/', 'coverage/', 'reports/', '.stryker-tmp/', 'docs/api/', 'node_modules/', '**/*.tgz']),

  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  regexp.configs['flat/recommended'],

  {
    languageOptions: {
      parserOptions: {
        // Each TS file is typed by the tsconfig.json that includes it (src, test, examples,
        // bench, vitest.config.ts); a TS file outside every tsconfig is an error.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // Linear time on hostile text (DESIGN.md): also reject patterns whose failed match at
      // each start position costs O(n), which makes a whole `exec`/`test` scan O(n^2).
      'regexp/no-super-linear-move': 'error',
      'regexp/no-super-linear-backtracking': 'error',
      eqeqeq: ['error', 'smart'],
      curly: ['error', 'multi-line'],
      // Template literals with numbers are common and harmless in messages and keys.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },

  // TSDoc presence and syntax on the library's exports.
  {
    files: ['src/**/*.ts'],
    plugins: { jsdoc, tsdoc },
    settings: { jsdoc: { mode: 'typescript' } },
    rules: {
      'jsdoc/require-jsdoc': [
        'error',
        {
          publicOnly: { esm: true, cjs: false },
          require: { FunctionDeclaration: true, ClassDeclaration: true },
          contexts: documentedContexts,
          checkConstructors: false,
        },
      ],
      'jsdoc/require-description': ['error', { contexts: documentedContexts }],
      'tsdoc/syntax': 'error',
    },
  },

  // Plain JavaScript (this file, scripts/*.mjs, stryker configs): no TS-only syntax rules that
  // need type annotations the files cannot have.
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
      },
    },
  },
);
