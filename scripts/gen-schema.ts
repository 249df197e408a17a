/**
 * Writes the JSON Schema files of both `_meta.buzz` shapes and of the `_meta.buzzContext` the proxy
 * forwards (`npm run schema`), generated from the zod schemas of record (the reader runs the first
 * two), so a host or an agent in another language checks against the same contract.
 * `test/schema/schema-drift.test.ts` fails when the committed files fall behind.
 *
 * Generated in zod's `input` mode: the default `output` mode emits `additionalProperties: false`
 * for every object, but readers tolerate unknown keys (a newer host may send more), so the
 * published contract must too. What JSON Schema cannot say — hashes, signatures, the job title's
 * UTF-8 byte bound and forbidden characters — is checked by the reader, not the schema.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { draftSchema } from '../src/draft/schema.js';
import { envelopeSchema } from '../src/envelope/schema.js';
import { buzzContextSchema } from '../src/proxy/context-schema.js';

/** The folder the files live in (also exported by package.json as `buzz-meta/schema/*.json`). */
export const SCHEMA_DIR = fileURLToPath(new URL('../docs/schema/', import.meta.url));

/** File name → exact file text, for the default limits. */
export function renderSchemas(): Record<string, string> {
  return {
    'envelope-v1.json': render(envelopeSchema()),
    'draft.json': render(draftSchema()),
    'buzz-context-v1.json': render(buzzContextSchema()),
  };
}

function render(schema: z.ZodType): string {
  return JSON.stringify(z.toJSONSchema(schema, { io: 'input' }), null, 2) + '\n';
}

function main(): void {
  for (const [name, text] of Object.entries(renderSchemas())) {
    const file = path.join(SCHEMA_DIR, name);
    writeFileSync(file, text);
    // A script, not an agent: stdout is free here.
    console.log(`wrote ${path.relative(process.cwd(), file)} (${String(text.length)} bytes)`);
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main();
}
