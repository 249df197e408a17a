/**
 * The committed JSON Schema files are what the zod schemas generate today. When this fails, run
 * `npm run schema` and commit docs/schema/: hosts in other languages validate against those files.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSchemas, SCHEMA_DIR } from '../../scripts/gen-schema.js';

const FILES = ['envelope-v1.json', 'draft.json', 'buzz-context-v1.json'] as const;

const render = (name: (typeof FILES)[number]): string => renderSchemas()[name] ?? '';

describe('docs/schema', () => {
  it('holds exactly the three generated files', () => {
    expect(Object.keys(renderSchemas())).toEqual(FILES);
  });

  it.each(FILES)('%s matches what the zod schema generates', (name) => {
    const committed = readFileSync(path.join(SCHEMA_DIR, name), 'utf8');
    expect(committed, `docs/schema/${name} is stale: run npm run schema`).toBe(render(name));
  });

  it.each(FILES)('%s allows unknown extra keys (no additionalProperties)', (name) => {
    expect(render(name)).not.toContain('additionalProperties');
  });

  it('names each shape by its zod id and declares draft 2020-12', () => {
    interface Head {
      $schema: string;
      $ref: string;
    }
    const envelope = JSON.parse(render('envelope-v1.json')) as Head;
    const draft = JSON.parse(render('draft.json')) as Head;
    const context = JSON.parse(render('buzz-context-v1.json')) as Head;
    expect(context.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(context.$ref).toBe('#/$defs/BuzzContextV1');
    expect(envelope.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(envelope.$ref).toBe('#/$defs/BuzzEnvelopeV1');
    expect(draft.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(draft.$ref).toBe('#/$defs/BuzzMetaDraft');
  });
});
