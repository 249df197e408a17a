/**
 * `spliceMeta` (src/proxy/meta-splice.ts): the forwarded prompt is the host's line with only
 * `params._meta` rewritten. Checked on the shapes that matter (no `_meta`, `null`, a non-object,
 * escaped keys, a key given twice) and as a property over random JSON: the result parses to the
 * expected request, and outside `_meta` every byte is the host's.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { spliceMeta } from '../../src/proxy/meta-splice.js';

/** What to keep of `_meta` and what to add. */
type MetaEdit = Parameters<typeof spliceMeta>[2];
import { numRuns } from '../support/fuzz.js';

const CONTEXT = '{"version":1}';
const edit: MetaEdit = { keep: (key) => key !== 'buzzContext', add: [['buzzContext', CONTEXT]] };

function splice(line: string, how: MetaEdit = edit): string {
  return spliceMeta(line, JSON.parse(line) as Record<string, unknown>, how);
}

describe('spliceMeta', () => {
  test('replaces the host buzzContext and keeps every other byte', () => {
    const line =
      '{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"caf\\u00e9 1.0"}],' +
      '"_meta":{"buzz":{"n":1.50,"e":1e2},"buzzContext":{"trust":"verified"},"other":[ 1 , 2 ]}}}';
    expect(splice(line)).toBe(
      '{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"caf\\u00e9 1.0"}],' +
        '"_meta":{"buzz":{"n":1.50,"e":1e2},"other":[ 1 , 2 ],"buzzContext":{"version":1}}}}',
    );
  });

  test('adds _meta where there is none, and replaces null or a non-object', () => {
    expect(splice('{"id":1,"params":{"sessionId":"s"}}')).toBe(
      '{"id":1,"params":{"sessionId":"s","_meta":{"buzzContext":{"version":1}}}}',
    );
    expect(splice('{"id":1,"params":{ }}')).toBe('{"id":1,"params":{ "_meta":{"buzzContext":{"version":1}}}}');
    expect(splice('{"params":{"_meta":null,"x":1},"id":1}')).toBe(
      '{"params":{"_meta":{"buzzContext":{"version":1}},"x":1},"id":1}',
    );
    expect(splice('{"params":{"_meta":[1,2]},"id":1}')).toBe(
      '{"params":{"_meta":{"buzzContext":{"version":1}}},"id":1}',
    );
    expect(splice('{"params":{"_meta":{}},"id":1}')).toBe('{"params":{"_meta":{"buzzContext":{"version":1}}},"id":1}');
  });

  test('keys are compared unescaped: an escaped buzzContext is removed too', () => {
    expect(splice('{"params":{"\\u005fmeta":{"buzz\\u0043ontext":1,"b\\"q":2}},"id":1}')).toBe(
      '{"params":{"\\u005fmeta":{"b\\"q":2,"buzzContext":{"version":1}}},"id":1}',
    );
  });

  test('drops buzz when told to', () => {
    const drop: MetaEdit = { keep: (key) => key !== 'buzz' && key !== 'buzzContext', add: [] };
    expect(splice('{"params":{"_meta":{"buzz":{},"x":1}},"id":1}', drop)).toBe('{"params":{"_meta":{"x":1}},"id":1}');
  });

  test('a params, _meta or _meta key given twice is written out again with one of each', () => {
    const twiceMeta = '{"id":1,"params":{"_meta":{"buzzContext":"spoof"},"sessionId":"s","_meta":{"buzz":1}}}';
    expect(splice(twiceMeta)).toBe(
      '{"id":1,"params":{"_meta":{"buzz":1,"buzzContext":{"version":1}},"sessionId":"s"}}',
    );
    const twiceKey = '{"id":1,"params":{"_meta":{"buzzContext":1,"x":1,"x":2}}}';
    expect(splice(twiceKey)).toBe('{"id":1,"params":{"_meta":{"x":2,"buzzContext":{"version":1}}}}');
    const twiceParams = '{"params":{"_meta":{"buzzContext":1}},"id":1,"params":{"sessionId":"s"}}';
    expect(splice(twiceParams)).toBe('{"params":{"sessionId":"s","_meta":{"buzzContext":{"version":1}}},"id":1}');
  });

  test('property: the result parses to the request with _meta edited, and its bytes outside _meta are the host’s', () => {
    const key = fc.oneof(fc.constantFrom('buzz', 'buzzContext', '_meta', 'x', '"', '\\'), fc.string({ maxLength: 6 }));
    const value = fc.jsonValue({ maxDepth: 3 });
    const meta = fc.oneof(fc.constant(undefined), fc.constant(null), value, fc.dictionary(key, value, { maxKeys: 5 }));
    fc.assert(
      fc.property(
        fc.dictionary(key, value, { maxKeys: 4 }),
        meta,
        fc.jsonValue({ maxDepth: 2 }),
        fc.boolean(),
        (params, metaValue, prompt, spaced) => {
          const request: Record<string, unknown> = { jsonrpc: '2.0', id: 1, method: 'session/prompt' };
          const body: Record<string, unknown> = Object.fromEntries(
            Object.entries(params).filter(([name]) => name !== '_meta'),
          );
          body.prompt = prompt;
          if (metaValue !== undefined) body._meta = metaValue;
          request.params = body;
          const line = spaced ? JSON.stringify(request, null, 1).replaceAll('\n', ' ') : JSON.stringify(request);
          const out = splice(line);
          // Built with own data properties only: a `__proto__` key of the input stays a key.
          const kept =
            typeof metaValue === 'object' && metaValue !== null && !Array.isArray(metaValue)
              ? Object.entries(metaValue).filter(([name]) => name !== 'buzzContext')
              : [];
          const expectedMeta = Object.fromEntries([...kept, ['buzzContext', { version: 1 }]]);
          // Compared as JSON text round-trips it (-0 reads back as 0).
          expect(JSON.parse(out)).toEqual(
            JSON.parse(JSON.stringify({ ...request, params: { ...body, _meta: expectedMeta } })),
          );
          // Outside `_meta` the bytes are the host's: `_meta` is the last member of params, so all before it is kept.
          const at =
            metaValue === undefined ? line.lastIndexOf('}', line.lastIndexOf('}') - 1) : line.indexOf('"_meta":');
          expect(out.slice(0, at)).toBe(line.slice(0, at));
        },
      ),
      { numRuns },
    );
  });
});
