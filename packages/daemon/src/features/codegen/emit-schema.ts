import type { Spec, TypeNode } from './grammar.ts';
import { labelOf, pascalName, spacedName, withArticle, wordsOf } from './names.ts';
import {
  docBlock,
  docSentence,
  joinParts,
  quoteLiteral,
  refsOf,
  type Emitted,
  type Language,
} from './emit-common.ts';

/**
 * A zod 4 schema and the type it infers, in TypeScript and in JavaScript alike (zod runs in both;
 * the JavaScript file states the type in JSDoc). A schema with an `id` also gets the schema of a new
 * record, without the id. Dates are coerced, so an ISO string from JSON parses into a Date.
 */

/** The zod expression for a type; `self` is the schema being declared (a recursive field). */
function zodOf(type: TypeNode, self: string): string {
  switch (type.kind) {
    case 'string': {
      let z = 'z.string()';
      if (type.min !== undefined) z += `.min(${type.min})`;
      if (type.max !== undefined) z += `.max(${type.max})`;
      return z;
    }
    case 'number': {
      let z = type.integer ? 'z.int()' : 'z.number()';
      if (type.min !== undefined) z += `.min(${type.min})`;
      if (type.gt !== undefined) z += `.gt(${type.gt})`;
      if (type.max !== undefined) z += `.max(${type.max})`;
      if (type.lt !== undefined) z += `.lt(${type.lt})`;
      return z;
    }
    case 'boolean':
      return 'z.boolean()';
    case 'date':
      return 'z.coerce.date()';
    case 'uuid':
      return 'z.uuid()';
    case 'email':
      return 'z.email()';
    case 'url':
      return 'z.url()';
    case 'record':
      return 'z.record(z.string(), z.unknown())';
    case 'enum':
      return `z.enum([${type.values.map(quoteLiteral).join(', ')}])`;
    case 'array': {
      let z = `z.array(${zodOf(type.of, self)})`;
      if (type.min !== undefined) z += `.min(${type.min})`;
      if (type.max !== undefined) z += `.max(${type.max})`;
      return z;
    }
    case 'ref':
      return `${type.name}Schema`;
    default:
      // unknown, callbacks, React content: data of any shape.
      return 'z.unknown()';
  }
}

const mentions = (type: TypeNode, name: string): boolean =>
  (type.kind === 'ref' && type.name === name) || (type.kind === 'array' && mentions(type.of, name));

export function emitSchema(spec: Spec, language: Language): Emitted {
  const ts = language === 'typescript';
  const words = wordsOf(spec.rawName);
  while (words.length > 1 && /^(schema|model|validator|type)$/.test(words.at(-1)!)) words.pop();
  const name = pascalName(words.join(' '), 'Item', 'Item');
  const schema = `${name}Schema`;
  const thing = spacedName(name);
  const fields = spec.fields;
  const refs = refsOf(fields.map((f) => f.type)).filter((r) => r !== name);

  const refSchemas = refs.map((ref) =>
    [
      docBlock([`${labelOf(ref)}: the description names this type without its fields; add them here.`]),
      `export const ${ref}Schema = z.record(z.string(), z.unknown());`,
    ].join('\n'),
  );

  // A field of the schema's own type is read through a getter, so the schema can refer to itself.
  const members = fields.map((f) => {
    const z = `${zodOf(f.type, schema)}${f.optional ? '.optional()' : ''}`;
    if (!mentions(f.type, name)) return `  ${f.name}: ${z},`;
    return `  get ${f.name}() {\n    return ${z};\n  },`;
  });
  const main = [
    docBlock([docSentence(spec.summary) || `${labelOf(withArticle(thing))}.`]),
    `export const ${schema} = z.object({`,
    ...members,
    '});',
  ].join('\n');
  const typeDecl = ts
    ? `export type ${name} = z.infer<typeof ${schema}>;`
    : docBlock([`@typedef {z.infer<typeof ${schema}>} ${name}`]);

  const hasId = fields.some((f) => f.name === 'id');
  const create = hasId
    ? [
        docBlock([`${labelOf(withArticle(`new ${thing}`))}, before it has an id.`]),
        `export const New${schema} = ${schema}.omit({ id: true });`,
        '',
        ts
          ? `export type New${name} = z.infer<typeof New${schema}>;`
          : docBlock([`@typedef {z.infer<typeof New${schema}>} New${name}`]),
      ].join('\n')
    : null;

  return {
    name: schema,
    fileName: `${name}.${ts ? 'ts' : 'js'}`,
    code: joinParts(["import { z } from 'zod';", ...refSchemas, main, typeDecl, create]),
  };
}
