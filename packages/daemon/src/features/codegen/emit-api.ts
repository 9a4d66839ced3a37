import type { Field, Spec, TypeNode } from './grammar.ts';
import {
  camelName,
  kebabName,
  pascalName,
  plural,
  singular,
  spacedName,
  withArticle,
  wordsOf,
} from './names.ts';
import {
  docBlock,
  docSentence,
  joinParts,
  quoteLiteral,
  refDeclarations,
  refsOf,
  tsType,
  type Emitted,
  type Language,
} from './emit-common.ts';

/**
 * An Express router with list, read, create, update (PATCH: the fields sent) and delete routes over
 * an in-memory Map, and hand-written validation of every field: the generated code needs nothing
 * but express. Dates travel as ISO-8601 strings (JSON has no dates); ids are set by the server.
 */

const STYLE = { date: 'string', node: 'unknown' } as const;

/** Names the generated code declares itself; a field's local variable never takes one. */
const TAKEN = new Set([
  'body',
  'problems',
  'fields',
  'partial',
  'isRecord',
  'isString',
  'isNumber',
  'isInteger',
  'isBoolean',
  'isDateText',
  'isUuid',
  'isEmail',
  'isUrl',
  'isOneOf',
  'isArrayOf',
  'UUID_PATTERN',
  'EMAIL_PATTERN',
]);

interface Guard {
  /** An expression that is a type guard function, e.g. `isString` or `isArrayOf(isString)`. */
  expr: string;
  /** What a value must be, for the error message ("a string", "one of 'a', 'b'"). */
  what: string;
}

interface Helpers {
  used: Set<string>;
  enums: Array<{ name: string; values: string[] }>;
}

function guardOf(type: TypeNode, helpers: Helpers, fieldName: string): Guard | null {
  const use = (name: string, expr: string, what: string): Guard => {
    helpers.used.add(name);
    return { expr, what };
  };
  switch (type.kind) {
    case 'string':
      return use('isString', 'isString', 'a string');
    case 'number':
      return type.integer
        ? use('isInteger', 'isInteger', 'a whole number')
        : use('isNumber', 'isNumber', 'a number');
    case 'boolean':
      return use('isBoolean', 'isBoolean', 'true or false');
    case 'date':
      return use('isDateText', 'isDateText', 'a date (ISO-8601)');
    case 'uuid':
      return use('isUuid', 'isUuid', 'a UUID');
    case 'email':
      return use('isEmail', 'isEmail', 'an email address');
    case 'url':
      return use('isUrl', 'isUrl', 'a URL');
    case 'record':
    case 'ref':
      return use('isRecord', 'isRecord', 'an object');
    case 'enum': {
      helpers.used.add('isOneOf');
      const constName = `${wordsOf(fieldName).join('_').toUpperCase() || 'FIELD'}_VALUES`;
      let unique = constName;
      for (let n = 2; helpers.enums.some((e) => e.name === unique); n++) unique = `${constName}_${n}`;
      helpers.enums.push({ name: unique, values: type.values });
      return { expr: `isOneOf(${unique})`, what: `one of ${type.values.join(', ')}` };
    }
    case 'array': {
      const inner = guardOf(type.of, helpers, fieldName);
      if (!inner) return null;
      helpers.used.add('isArrayOf');
      return {
        expr: `isArrayOf(${inner.expr})`,
        what: `a list of ${inner.what.replace(/^(a|an) /, '')} values`,
      };
    }
    default:
      // unknown, callbacks, React content: any JSON value is taken as it is.
      return null;
  }
}

const HELPERS_TS: Record<string, string> = {
  isRecord:
    "const isRecord = (value: unknown): value is Record<string, unknown> =>\n  typeof value === 'object' && value !== null && !Array.isArray(value);",
  isString: "const isString = (value: unknown): value is string => typeof value === 'string';",
  isNumber:
    "const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);",
  isInteger: 'const isInteger = (value: unknown): value is number => Number.isInteger(value);',
  isBoolean: "const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';",
  isDateText:
    "const isDateText = (value: unknown): value is string =>\n  typeof value === 'string' && !Number.isNaN(Date.parse(value));",
  isUuid:
    "const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;\nconst isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);",
  isEmail:
    "const EMAIL_PATTERN = /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/;\nconst isEmail = (value: unknown): value is string => typeof value === 'string' && EMAIL_PATTERN.test(value);",
  isUrl:
    "const isUrl = (value: unknown): value is string => {\n  if (typeof value !== 'string') return false;\n  try {\n    return Boolean(new URL(value));\n  } catch {\n    return false;\n  }\n};",
  isOneOf:
    "const isOneOf =\n  <T extends string>(values: readonly T[]) =>\n  (value: unknown): value is T =>\n    typeof value === 'string' && (values as readonly string[]).includes(value);",
  isArrayOf:
    'const isArrayOf =\n  <T>(isItem: (value: unknown) => value is T) =>\n  (value: unknown): value is T[] =>\n    Array.isArray(value) && value.every((item) => isItem(item));',
};

/** The JavaScript helpers: the TypeScript ones without their types. */
function helperJs(name: string): string {
  const ts = HELPERS_TS[name]!;
  return ts
    .replace(/<T extends string>/g, '')
    .replace(/<T>/g, '')
    .replace(/\(value: unknown\): value is [^=]+=>/g, '(value) =>')
    .replace(/\(values: readonly T\[\]\)/g, '(values)')
    .replace(/\(isItem: \(value: unknown\) => value is T\)/g, '(isItem)')
    .replace(/\(values as readonly string\[\]\)/g, 'values');
}

/** Checks of one field's bounds, after its type guard: [condition that fails, message]. */
function boundChecks(local: string, name: string, type: TypeNode): Array<[string, string]> {
  const checks: Array<[string, string]> = [];
  if (type.kind === 'string' || type.kind === 'array') {
    const unit = type.kind === 'string' ? 'character' : 'item';
    if (type.min !== undefined) {
      checks.push([
        `${local}.length < ${type.min}`,
        `${name} must have at least ${type.min} ${unit}${type.min === 1 ? '' : 's'}.`,
      ]);
    }
    if (type.max !== undefined) {
      checks.push([
        `${local}.length > ${type.max}`,
        `${name} must have at most ${type.max} ${unit}${type.max === 1 ? '' : 's'}.`,
      ]);
    }
  }
  if (type.kind === 'number') {
    if (type.min !== undefined)
      checks.push([`${local} < ${type.min}`, `${name} must be at least ${type.min}.`]);
    if (type.gt !== undefined)
      checks.push([`${local} <= ${type.gt}`, `${name} must be more than ${type.gt}.`]);
    if (type.max !== undefined)
      checks.push([`${local} > ${type.max}`, `${name} must be at most ${type.max}.`]);
    if (type.lt !== undefined)
      checks.push([`${local} >= ${type.lt}`, `${name} must be less than ${type.lt}.`]);
  }
  return checks;
}

/** The type a JSON body can carry: callbacks and React content become unknown, the entity an object. */
const cap = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

function jsonType(type: TypeNode, entity: string): TypeNode {
  if (type.kind === 'callback' || type.kind === 'node' || type.kind === 'void') return { kind: 'unknown' };
  if (type.kind === 'ref' && type.name === entity) return { kind: 'record' };
  if (type.kind === 'array') return { ...type, of: jsonType(type.of, entity) };
  return type;
}

export function emitApi(spec: Spec, language: Language): Emitted {
  const ts = language === 'typescript';
  const words = wordsOf(spec.rawName);
  while (words.length > 1 && /^(api|apis|router|routes|endpoints|crud|rest|service)$/.test(words.at(-1)!))
    words.pop();
  if (words.length === 0) words.push('items');
  const last = words.at(-1)!;
  const singularWords = [...words.slice(0, -1), singular(last)];
  const pluralWords = [...words.slice(0, -1), plural(last)];
  const entity = pascalName(singularWords.join(' '), 'item', 'Item');
  const collection = camelName(pluralWords.join(' '), 'items');
  const router = `${collection}Router`;
  const path = kebabName(pluralWords.join(' '));
  const thing = spacedName(singularWords.join(' '));
  const inputName = `${entity}Input`;

  // The server sets `id`; callbacks and React content cannot travel in JSON.
  // A field of the entity's own type (parent: Todo) holds a plain object: the stored one has an id.
  const fields: Field[] = spec.fields
    .filter((f) => f.name !== 'id')
    .map((f) => ({ ...f, type: jsonType(f.type, entity) }));
  const refs = refsOf(fields.map((f) => f.type)).filter((r) => r !== entity);

  const helpers: Helpers = { used: new Set(['isRecord']), enums: [] };
  // With no required field, every body is partial: the flag is unused.
  const partial = fields.some((f) => !f.optional) ? 'partial' : '_partial';
  const checks: string[] = [];
  for (const f of fields) {
    const local = TAKEN.has(f.name) ? `${f.name}Field` : f.name;
    const guard = guardOf(f.type, helpers, f.name);
    const assign = f.type.kind === 'date' ? `new Date(${local}).toISOString()` : local;
    const branches: Array<[string | null, string]> = [
      [
        `${local} === undefined`,
        f.optional
          ? '// Optional: left out is fine.'
          : `if (!${partial}) problems.push(${quoteLiteral(`${f.name} is required.`)});`,
      ],
    ];
    if (guard)
      branches.push([
        `!${guard.expr}(${local})`,
        `problems.push(${quoteLiteral(`${f.name} must be ${guard.what}.`)});`,
      ]);
    for (const [failing, message] of boundChecks(local, f.name, f.type)) {
      branches.push([failing, `problems.push(${quoteLiteral(message)});`]);
    }
    branches.push([null, `fields.${f.name} = ${assign};`]);
    const chain = branches
      .map(
        ([condition, action], i) =>
          `${i === 0 ? '' : ' else '}${condition ? `if (${condition}) ` : ''}{\n    ${action}\n  }`,
      )
      .join('');
    checks.push(`  const ${local} = body[${quoteLiteral(f.name)}];\n  ${chain}`);
  }

  const t = (text: string) => (ts ? text : '');
  const enumConsts = helpers.enums.map(
    (e) => `const ${e.name} = [${e.values.map(quoteLiteral).join(', ')}]${t(' as const')};`,
  );
  const helperCode = [...helpers.used]
    .sort((a, b) => Object.keys(HELPERS_TS).indexOf(a) - Object.keys(HELPERS_TS).indexOf(b))
    .map((h) => (ts ? HELPERS_TS[h]! : helperJs(h)));

  const entityDecl = ts
    ? [
        docBlock([`${cap(withArticle(thing))} as the API stores and returns it.`]),
        `export interface ${entity} {`,
        '  id: string;',
        ...fields.map((f) => {
          const doc = f.type.kind === 'date' ? '  /** ISO-8601 date. */\n' : '';
          return `${doc}  ${f.name}${f.optional ? '?' : ''}: ${tsType(f.type, STYLE)};`;
        }),
        '}',
        '',
        docBlock([`What a client sends to create ${withArticle(thing)}: the server sets the id.`]),
        `export type ${inputName} = Omit<${entity}, 'id'>;`,
        '',
        `type Checked<T> = { ok: true; value: T } | { ok: false; errors: string[] };`,
      ].join('\n')
    : docBlock([
        `${cap(withArticle(thing))} as the API stores and returns it.`,
        '',
        `@typedef {object} ${entity}`,
        '@property {string} id',
        ...fields.map((f) => `@property {${tsType(f.type, STYLE)}} ${f.optional ? `[${f.name}]` : f.name}`),
      ]);

  const readDoc = docBlock([
    `Check a request body: every required field for a create, only the fields sent for an update (\`partial\`).`,
    ...(ts
      ? []
      : [
          '',
          '@param {unknown} body',
          `@param {boolean} ${partial}`,
          `@returns {{ ok: true, value: Partial<Omit<${entity}, 'id'>> } | { ok: false, errors: string[] }}`,
        ]),
  ]);
  const readFn = [
    readDoc,
    `function read${entity}(body${t(': unknown')}, ${partial}${t(': boolean')})${t(`: Checked<Partial<${inputName}>>`)} {`,
    `  if (!isRecord(body)) return { ok: false, errors: ['Send a JSON object.'] };`,
    `  const problems${t(': string[]')} = [];`,
    `  const fields${t(`: Partial<${inputName}>`)} = {};`,
    ...(checks.length > 0 ? ['', checks.join('\n\n'), ''] : []),
    '  return problems.length > 0 ? { ok: false, errors: problems } : { ok: true, value: fields };',
    '}',
  ].join('\n');

  const notFound = `res.status(404).json({ error: \`No ${thing} with id \${req.params.id}.\` });`;
  const routes = [
    docBlock([
      docSentence(spec.summary) || `REST routes for ${thing} items.`,
      '',
      `Mount it with: app.use('/api/${path}', express.json(), ${router});`,
      `The ${spacedName(pluralWords.join(' '))} live in memory (a Map): replace it with your database.`,
    ]),
    `export const ${router} = Router();`,
    '',
    `const ${collection} = new Map${t(`<string, ${entity}>`)}();`,
    'let nextId = 1;',
    '',
    `${router}.get('/', (_req, res) => {`,
    `  res.json([...${collection}.values()]);`,
    '});',
    '',
    `${router}.get('/:id', (req, res) => {`,
    `  const found = ${collection}.get(req.params.id);`,
    '  if (!found) {',
    `    ${notFound}`,
    '    return;',
    '  }',
    '  res.json(found);',
    '});',
    '',
    `${router}.post('/', (req, res) => {`,
    `  const checked = read${entity}(req.body, false);`,
    '  if (!checked.ok) {',
    '    res.status(400).json({ errors: checked.errors });',
    '    return;',
    '  }',
    '  const id = String(nextId++);',
    ts
      ? `  // Every required field was checked above, so the partial is whole.\n  const created: ${entity} = { ...(checked.value as ${inputName}), id };`
      : '  const created = { ...checked.value, id };',
    `  ${collection}.set(id, created);`,
    '  res.status(201).json(created);',
    '});',
    '',
    `${router}.patch('/:id', (req, res) => {`,
    `  const found = ${collection}.get(req.params.id);`,
    '  if (!found) {',
    `    ${notFound}`,
    '    return;',
    '  }',
    `  const checked = read${entity}(req.body, true);`,
    '  if (!checked.ok) {',
    '    res.status(400).json({ errors: checked.errors });',
    '    return;',
    '  }',
    `  const updated${t(`: ${entity}`)} = { ...found, ...checked.value, id: found.id };`,
    `  ${collection}.set(found.id, updated);`,
    '  res.json(updated);',
    '});',
    '',
    `${router}.delete('/:id', (req, res) => {`,
    `  if (!${collection}.delete(req.params.id)) {`,
    `    ${notFound}`,
    '    return;',
    '  }',
    '  res.status(204).end();',
    '});',
  ].join('\n');

  return {
    name: router,
    fileName: `${collection}.${ts ? 'ts' : 'js'}`,
    code: joinParts([
      "import { Router } from 'express';",
      ...refDeclarations(refs, language),
      entityDecl,
      [...enumConsts, ...helperCode].join('\n\n'),
      readFn,
      routes,
    ]),
  };
}
