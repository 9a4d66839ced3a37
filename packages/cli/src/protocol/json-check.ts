/**
 * A quick check of a JSON value against the JSON Schema that zod derives from one of the protocol's
 * schemas (`schema.toJSONSchema({ io: 'output' })`, computed at build time). It answers one question
 * without loading zod: would the zod schema give back this very value? `'same'` means yes: zod
 * would accept it and its output would equal it, key order included (zod orders an object's keys as
 * its shape does). Anything else means ask zod: `'invalid'` (zod would refuse it), `'differs'` (zod
 * would accept it but strip, reorder or fill in something) and `'unknown'` (a keyword this check
 * does not implement). A daemon of this version answers with zod's own output, so its answers are
 * `'same'` and zod is never loaded to read them. Kept beside the shared client's zod check for start-up
 * time: zod and the schemas cost a read command ~0.05 s of CPU, measured with farm-bench
 * (docs/decisions.md), against a goal of 1.5× `node -e 0` (0.06 s).
 */

/** The part of JSON Schema (draft 2020-12) that zod's toJSONSchema writes for the protocol. */
export interface JsonSchema {
  type?: JsonType | JsonType[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  [keyword: string]: unknown;
}

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';

export type CheckResult = 'same' | 'differs' | 'invalid' | 'unknown';

/** Keywords that change nothing about which values are valid. */
const ANNOTATIONS = new Set(['$schema', 'title', 'description', 'default', 'examples', 'deprecated']);
/** The keywords checkJson implements; any other makes it answer "unknown". */
export const KNOWN_KEYWORDS: ReadonlySet<string> = new Set([
  ...ANNOTATIONS,
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
]);

/** Worst of two results: invalid beats unknown beats differs beats same. */
const RANK: Record<CheckResult, number> = { same: 0, differs: 1, unknown: 2, invalid: 3 };
const worst = (a: CheckResult, b: CheckResult): CheckResult => (RANK[b] > RANK[a] ? b : a);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function typeMatches(type: JsonType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    default:
      return false;
  }
}

/** What is worked out once per schema node: an array of 500 builds checks one item schema 500 times. */
interface Prepared {
  known: boolean;
  /** Each property's place in the shape. */
  order: Map<string, number>;
}
const prepared = new WeakMap<JsonSchema, Prepared>();
function prepare(schema: JsonSchema): Prepared {
  let p = prepared.get(schema);
  if (!p) {
    p = {
      known: Object.keys(schema).every((keyword) => KNOWN_KEYWORDS.has(keyword)),
      order: new Map(Object.keys(schema.properties ?? {}).map((key, i) => [key, i])),
    };
    prepared.set(schema, p);
  }
  return p;
}

/** Whether zod's output for `value` would be `value` itself (see the module comment). */
export function checkJson(schema: JsonSchema, value: unknown): CheckResult {
  if (!prepare(schema).known) return 'unknown';

  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => typeMatches(t, value))) return 'invalid';
  }
  if (schema.const !== undefined && schema.const !== value) return 'invalid';
  if (schema.enum && !schema.enum.includes(value)) return 'invalid';

  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return 'invalid';
    if (schema.maximum !== undefined && value > schema.maximum) return 'invalid';
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return 'invalid';
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) return 'invalid';
  }
  // zod measures strings in UTF-16 code units, as .length does.
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) return 'invalid';
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return 'invalid';
  }

  let result: CheckResult = 'same';
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return 'invalid';
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return 'invalid';
    if (schema.items) {
      for (const item of value) {
        result = worst(result, checkJson(schema.items, item));
        if (result === 'invalid') return result;
      }
    }
  }
  if (isObject(value)) {
    result = worst(result, checkObject(schema, value));
    if (result === 'invalid') return result;
  }

  const options = schema.anyOf ?? schema.oneOf;
  if (options) {
    if (schema.anyOf && schema.oneOf) return 'unknown';
    // zod's union answers with the first option that accepts the value (a discriminated union
    // with the one whose tag matches, the only one that can accept it): that option decides.
    for (const option of options) {
      const r = checkJson(option, value);
      if (r === 'invalid') continue;
      return worst(result, r === 'same' ? 'same' : 'unknown');
    }
    return 'invalid';
  }
  return result;
}

function checkObject(schema: JsonSchema, value: Record<string, unknown>): CheckResult {
  // No object keyword (an anyOf around object options, z.unknown()): nothing to say about keys here.
  if (
    !schema.properties &&
    !schema.required &&
    !schema.propertyNames &&
    schema.additionalProperties === undefined
  ) {
    return 'same';
  }
  const properties = schema.properties ?? {};
  const extra = schema.additionalProperties;
  // An object that keeps unknown keys next to known ones (z.looseObject): where zod puts them is
  // not worth predicting.
  if (schema.properties && extra !== undefined && extra !== false) return 'unknown';

  let result: CheckResult = 'same';
  for (const key of schema.required ?? []) {
    if (key in value) continue;
    const propertySchema = properties[key];
    // zod fills in a default; a schema without a type might take `undefined`: zod will tell.
    if (propertySchema?.default !== undefined) result = worst(result, 'differs');
    else if (propertySchema?.type === undefined) result = worst(result, 'unknown');
    else return 'invalid';
  }
  const { order } = prepare(schema);
  let lastIndex = -1;
  for (const [key, item] of Object.entries(value)) {
    const propertySchema = properties[key];
    if (propertySchema) {
      result = worst(result, checkJson(propertySchema, item));
      const index = order.get(key)!;
      // zod builds its output in the shape's order.
      if (index < lastIndex) result = worst(result, 'differs');
      lastIndex = index;
    } else if (extra === false) {
      // z.object strips an unknown key (z.strictObject refuses it: zod will tell).
      result = worst(result, 'differs');
    } else if (typeof extra === 'object') {
      // A record: each key and value checked, keys kept in their order.
      if (schema.propertyNames) result = worst(result, checkJson(schema.propertyNames, key));
      result = worst(result, checkJson(extra, item));
    } else {
      result = worst(result, 'unknown');
    }
    if (result === 'invalid') return result;
  }
  // A missing optional key with a default is filled in by zod too.
  for (const [key, propertySchema] of Object.entries(properties)) {
    if (!(key in value) && propertySchema.default !== undefined) result = worst(result, 'differs');
  }
  return result;
}
