/**
 * Vitest setup file used only under StrykerJS (`vitest.config.ts`). Before each test it empties the
 * schema caches, so every test that reads an envelope or a draft builds the schemas itself. Stryker
 * records which tests run each mutant; with the caches kept, a mutant in a schema definition would
 * look as if only the first test to build that schema ran it, and would be tried against that test
 * alone (the first full run left 27 schema.ts mutants "surviving" that way). The legacy scraper's
 * npub cache is emptied for the same reason.
 *
 * @packageDocumentation
 */
import { beforeEach } from 'vitest';
import { forgetDecodedNpubs } from '../../src/legacy/fields.js';
import { forgetBuiltSchemas } from '../../src/shared/schema-kit.js';

beforeEach(() => {
  forgetBuiltSchemas();
  forgetDecodedNpubs();
});
