/**
 * Just enough of JSON Schema 2020-12 to check the two published schemas against real payloads,
 * without adding a validator dependency: the keywords `z.toJSONSchema` emits for them. A keyword
 * this file does not know throws, so a schema change cannot silently turn into "valid".
 */

/** A JSON Schema node as the generated files use it. */
type Schema = Readonly<Record<string, unknown>>;

/** Keywords that only annotate; they never reject a value. */
const ANNOTATIONS = new Set(['$schema', '$defs', 'title', 'description']);

/**
 * Returns the JSON pointers (with a short reason) at which `value` breaks `schema`; `[]` when it
 * conforms. `root` resolves `#/$defs/…` references.
 */
export function validate(schema: Schema, value: unknown, root: Schema = schema, at = ''): string[] {
  const errors: string[] = [];
  const fail = (reason: string): void => {
    errors.push(`${at || '/'}: ${reason}`);
  };
  for (const [keyword, rule] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    switch (keyword) {
      case '$ref':
        errors.push(...validate(resolve(root, rule as string), value, root, at));
        break;
      case 'type':
        // A list of types (`["string", "null"]`) accepts any of them.
        if (![rule].flat().some((type) => hasType(value, type as string))) fail(`expected ${String(rule)}`);
        break;
      case 'const':
        if (value !== rule) fail(`expected ${JSON.stringify(rule)}`);
        break;
      case 'enum':
        if (!(rule as unknown[]).includes(value)) fail('not one of the enum values');
        break;
      case 'pattern':
        if (typeof value === 'string' && !new RegExp(rule as string, 'u').test(value)) fail('pattern');
        break;
      case 'minLength':
        if (typeof value === 'string' && codePoints(value) < (rule as number)) fail('too short');
        break;
      case 'maxLength':
        if (typeof value === 'string' && codePoints(value) > (rule as number)) fail('too long');
        break;
      case 'minimum':
        if (typeof value === 'number' && value < (rule as number)) fail('below minimum');
        break;
      case 'maximum':
        if (typeof value === 'number' && value > (rule as number)) fail('above maximum');
        break;
      case 'minItems':
        if (Array.isArray(value) && value.length < (rule as number)) fail('too few items');
        break;
      case 'maxItems':
        if (Array.isArray(value) && value.length > (rule as number)) fail('too many items');
        break;
      case 'items':
        if (Array.isArray(value)) {
          value.forEach((item: unknown, index) => {
            errors.push(...validate(rule as Schema, item, root, `${at}/${String(index)}`));
          });
        }
        break;
      case 'required':
        if (isObject(value)) {
          for (const key of rule as string[]) if (!Object.hasOwn(value, key)) fail(`missing ${key}`);
        }
        break;
      case 'properties':
        if (isObject(value)) {
          for (const [key, sub] of Object.entries(rule as Record<string, Schema>)) {
            if (Object.hasOwn(value, key)) errors.push(...validate(sub, value[key], root, `${at}/${key}`));
          }
        }
        break;
      case 'anyOf':
        if (!(rule as Schema[]).some((sub) => validate(sub, value, root, at).length === 0)) fail('no anyOf branch');
        break;
      default:
        throw new Error(`json-schema-lite does not implement "${keyword}" (at ${at || '/'})`);
    }
  }
  return errors;
}

function resolve(root: Schema, ref: string): Schema {
  const prefix = '#/$defs/';
  if (!ref.startsWith(prefix)) throw new Error(`unsupported $ref ${ref}`);
  const defs = root.$defs as Record<string, Schema> | undefined;
  const target = defs?.[ref.slice(prefix.length)];
  if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
  return target;
}

/** JSON Schema counts string length in code points, not UTF-16 units. */
function codePoints(text: string): number {
  return Array.from(text).length;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    default:
      throw new Error(`unsupported type ${type}`);
  }
}
