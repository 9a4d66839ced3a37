import { docBlock, docSentence, refDeclarations, refsOf, tsType } from '../emit-common.ts';
import { labelOf, pascalName, wordsOf } from '../names.ts';
import { objectType, renderTemplate } from '../ts-template.ts';
import { hasWord } from './describe.ts';
import type { Recipe } from './recipe.ts';

/**
 * A TypeScript type from a field list, when a type (not a validator) is what was asked for: "an
 * interface for User with id: uuid, email and age?: int". The members are the compiler's
 * property signatures; in JavaScript the same type as a JSDoc typedef.
 */
const tsTypes: Recipe = {
  id: 'ts-type',
  kinds: ['schema'],
  fields: 'all',
  summary: 'a TypeScript type with a member per field',
  match: (d) =>
    d.spec.fields.length > 0 &&
    hasWord(d, /^(interface|interfaces|type|types)$/) &&
    !hasWord(d, /^(zod|schema|schemas|validator|validators|validate|validates|validation|parse|parses)$/),
  vocabulary:
    /^(interface|interfaces|type|types|typescript|ts|shape|model|entity|describing|describes|data)$/,
  build(d, language) {
    // "an interface for User", "type Product": the name is what the type is for.
    const named =
      /\b(?:interface|type)\s+(?:(?:for|of|describing)\s+)?(?:(?:an?|the)\s+)?([A-Za-z_$][\w$]*)/i.exec(
        d.spec.description,
      )?.[1];
    const words = wordsOf(d.explicitName ?? named ?? d.spec.rawName).filter(
      (w) => !/^(interface|type|types|typescript|ts|with)$/.test(w),
    );
    const name = pascalName(words.join(' '), 'Item', 'Item');
    const fields = d.spec.fields;
    const refs = refsOf(fields.map((f) => f.type)).filter((r) => r !== name);
    const doc = docSentence(d.spec.summary) || `${labelOf(name)}.`;
    const fileName = `${name}.${language === 'typescript' ? 'ts' : 'js'}`;
    if (language === 'javascript') {
      const typedef = docBlock([
        doc,
        '',
        `@typedef {object} ${name}`,
        ...fields.map((f) => `@property {${tsType(f.type)}} ${f.optional ? `[${f.name}]` : f.name}`),
      ]);
      return {
        name,
        fileName,
        code: `${[...refDeclarations(refs, language), typedef, 'export {};'].join('\n\n')}\n`,
      };
    }
    const main = renderTemplate(
      `export interface $Name {\n  $MEMBERS: never;\n}\n`,
      { $Name: name, $MEMBERS: objectType(fields).members },
      language,
      false,
    );
    return {
      name,
      fileName,
      code: `${[...refDeclarations(refs, language), `${docBlock([doc])}\n${main.trim()}`].join('\n\n')}\n`,
    };
  },
};

export const TYPE_RECIPES: readonly Recipe[] = [tsTypes];
