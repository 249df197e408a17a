/**
 * Vitest setup file used only under StrykerJS (`vitest.config.ts`). Empty: the source keeps no
 * test hook (the schema and npub caches are not emptied between tests), so a mutant in a schema
 * definition counts as covered by the first test that builds that schema.
 *
 * @packageDocumentation
 */
export {};
