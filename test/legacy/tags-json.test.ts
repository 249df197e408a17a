/** The structural check before a Tags value is parsed: it accepts exactly what parses to arrays of strings. */
import { fc, test as fcTest } from '@fast-check/vitest';
import { expect, test } from 'vitest';
import { isTagsJson } from '../../src/legacy/tags-json.js';
import { numRuns } from '../support/fuzz.js';

function parsesToTags(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return (
      Array.isArray(parsed) && parsed.every((tag) => Array.isArray(tag) && tag.every((v) => typeof v === 'string'))
    );
  } catch {
    return false;
  }
}

test.each([
  ['[]', true],
  ['[["h","x"],["p","y","","reply"]]', true],
  [' [ [ "a" , "b" ] , [ ] ] ', true],
  ['[["\\u00e9\\n\\"\\\\\\/\\b\\f\\r\\t"]]', true],
  ['[["a"],]', false],
  ['[[1]]', false],
  ['[["a"]] x', false],
  ['[["\\x"]]', false],
  ['[["\\u12g4"]]', false],
  ['[["a\nb"]]', false],
  ['[["a"]', false],
  ['[[', false],
  ['["a"]', false],
  ['{}', false],
  ['', false],
  // JSON white space is space, tab, line feed and carriage return, anywhere between tokens.
  ['\t[\n[\r"a"\t,\n"b"\r]\t]\n', true],
  // Between tags and between strings only a comma may stand; text there is not skipped.
  ['[["a"]x["b"]]', false],
  ['[["a"x"b"]]', false],
  ['[["a" "b"]]', false],
  ['[["a"],x]', false],
  // A tag starts with `[` and a string with `"`, the first one included.
  ['[,["a"]]', false],
  ['[x]]', false],
  ['[[x"]]', false],
  ['[["a"],["b"', false],
  // \u takes four hex digits of either case, and nothing just outside 0-9, a-f, A-F.
  ['[["\\u09af\\uAF00"]]', true],
  ['[["\\u/000"]]', false],
  ['[["\\u:000"]]', false],
  ['[["\\u`000"]]', false],
  ['[["\\ug000"]]', false],
  ['[["\\u@000"]]', false],
  ['[["\\uG000"]]', false],
  ['[["\\ua000"]]', true],
  ['[["\\uf000"]]', true],
  ['[["\\uA000"]]', true],
  ['[["\\uF000"]]', true],
])('%s → %s', (value, expected) => {
  expect(isTagsJson(value)).toBe(expected);
  expect(parsesToTags(value)).toBe(expected);
});

const tagsLike = fc.oneof(
  fc.json(),
  fc.array(fc.array(fc.string(), { maxLength: 3 }), { maxLength: 3 }).map((tags) => JSON.stringify(tags)),
  fc
    .array(fc.constantFrom('[', ']', '"', ',', '\\', 'u', '0', 'a', ' ', '\n', 'n', '1', '{', '}', ':'), {
      maxLength: 24,
    })
    .map((chars) => chars.join('')),
);

fcTest.prop([tagsLike], { numRuns })('the check agrees with JSON.parse on any text', (value) => {
  expect(isTagsJson(value)).toBe(parsesToTags(value));
});
