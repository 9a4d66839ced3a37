import type { CodeKind } from '@forge/shared';
import type { Emitted, Language } from '../emit-common.ts';
import { emitApi } from '../emit-api.ts';
import { emitComponent } from '../emit-component.ts';
import { emitFunction } from '../emit-function.ts';
import { emitSchema } from '../emit-schema.ts';
import type { Spec } from '../grammar.ts';
import { wordsOf } from '../names.ts';
import { COMPONENT_RECIPES } from './components.ts';
import { describe, hasWord, unexplained, type Desc } from './describe.ts';
import { FUNCTION_RECIPES, RECORD_RECIPES } from './functions.ts';
import { HOOK_RECIPES } from './hooks.ts';
import { TYPE_RECIPES } from './types.ts';
import type { Recipe } from './recipe.ts';

export type { Recipe } from './recipe.ts';

/**
 * The catalogue: description → the recipe that implements it, or an honest skeleton. A recipe (or
 * one of the emitters' own tasks) answers only when it explains every word of the description that
 * carries meaning; otherwise the answer is a typed skeleton that says so and why. The generator
 * never answers with code that computes something other than what was asked.
 */

export interface Answer {
  emitted: Emitted;
  kind: 'implemented' | 'skeleton';
  /** What the code implements, or why it is a skeleton. */
  reason: string;
  /** The recipe used (for the benchmark and the model's checks); absent for a skeleton. */
  recipe?: string;
}

/** Every recipe, in the order they are tried. */
export const RECIPES: readonly Recipe[] = [
  ...HOOK_RECIPES,
  ...FUNCTION_RECIPES,
  ...COMPONENT_RECIPES,
  ...RECORD_RECIPES,
  ...TYPE_RECIPES,
];

/** The words the function emitter's own tasks explain (slugify, sum, sort by, clamp…). */
const FUNCTION_TASK_WORDS =
  /^(slug|slugs|slugify|slugifies|url|urls|link|links|uri|uris|valid|validate|validates|validation|check|checks|verify|verifies|is|isvalid|email|emails|mail|address|addresses|well|formed|capitali[sz]e|capitali[sz]es|capitali[sz]ed|first|letter|letters|title|titlecase|case|every|each|word|words|truncate|truncates|shorten|shortens|ellipsis|reverse|reverses|reversed|unique|uniq|dedupe|deduplicate|distinct|duplicates|remove|removes|removing|sum|sums|total|totals|add|adds|up|average|averages|mean|avg|max|maximum|largest|biggest|highest|min|minimum|smallest|lowest|count|counts|counting|characters?|chars|sentence|sentences|paragraph|filter|filters|filtered|only|active|sort|sorts|sorted|sorting|order|orders|by|ascending|descending|asc|desc|format|formats|formatted|price|prices|currency|money|amount|cost|clamp|clamps|clamped|between|range|text|length|limit|get|gets|calculate|calculates|compute|computes|find|finds|lower|upper|bound|bounds|url-safe|safe|hyphens|in|keep|keeps|kept)$/;

/** The words a component that shows its props (a card, a profile, a detail view) explains. */
const DISPLAY_WORDS =
  /^(card|cards|profile|profiles|details?|detail|view|views|panel|panels|badge|badges|summary|item|tile|tiles|info|shows?|showing|displays?|displaying|renders?|rendering|presents?|user|users|product|products|avatar|image|photo|heading|title|preview|row|entry|header|footer|banner|page|post|article|comment|contact|person|author|book|movie|event|order|task|todo|notification|message|weather|city|price)$/;

/** A component that shows its props is what was asked only when the description says so. */
const DISPLAY_NOUNS =
  /^(card|cards|profile|profiles|details?|view|views|panel|panels|badge|badges|summary|tile|tiles|info|shows?|showing|displays?|displaying|renders?|rendering|presents?|preview|row|entry)$/;

const API_WORDS =
  /^(api|apis|endpoint|endpoints|route|routes|router|routers|rest|restful|crud|express|server|http|json|get|post|put|patch|delete|list|read|create|update|remove|validation|validate|validates|validated|status|codes?|errors?|in|memory|store|resource|resources|blog|posts?|todos?|users?|products?|orders?|tasks?|items?|books?|notes?|comments?|customers?|manage|manages|managing|handlers?|body|request|requests|responses?)$/;

const SCHEMA_WORDS =
  /^(schema|schemas|zod|model|models|validator|validators|validation|validate|validates|type|types|interface|shape|entity|form|data|object|typescript|infer|inferred|user|users|product|products|order|orders|address|post|posts|todo|todos|event|events|payload|request|response|body|settings|config|profile)$/;

/** "the description also says 'discount', 'applying', which X does not do." */
const notExplained = (what: string, words: string[]): string =>
  `${what} does not explain ${words.map((w) => `"${w}"`).join(', ')} in the description`;

/** Try the recipes of a kind in order; the first that matches and explains the description wins. */
function tryRecipes(
  d: Desc,
  kind: CodeKind,
  recipes: readonly Recipe[],
  language: Language,
  declined: string[],
): Answer | null {
  for (const recipe of recipes) {
    if (!recipe.kinds.includes(kind) || !recipe.match(d)) continue;
    const extra = unexplained(d, recipe.vocabulary, [], recipe.fields);
    if (extra.length > 0) {
      declined.push(notExplained(`the ${recipe.id} recipe`, extra));
      continue;
    }
    return {
      emitted: recipe.build(d, language),
      kind: 'implemented',
      reason: recipe.summary,
      recipe: recipe.id,
    };
  }
  return null;
}

function skeletonReason(declined: string[]): string {
  const head = 'no recipe of the catalogue does what the description asks';
  return declined.length > 0 ? `${head} (${declined.join('; ')})` : head;
}

/** A skeleton's code opens with a comment that says it is one, and why. */
function markSkeleton(emitted: Emitted, reason: string): Emitted {
  const note = [
    `// Skeleton: ${reason.replace(/\*\//g, '* /').replace(/[\r\n]+/g, ' ')}.`,
    '// Typed scaffolding to complete by hand; it does not yet do what its description says.',
  ];
  return { ...emitted, code: `${note.join('\n')}\n\n${emitted.code}` };
}

/** Answer a description of `spec.kind`: a recipe, an emitter's own task, or an honest skeleton. */
export function answer(spec: Spec, language: Language): Answer {
  const d = describe(spec);
  const declined: string[] = [];
  switch (spec.kind) {
    case 'function': {
      // With no typed parameters, "a numeric property over records" is a record recipe's, not one of
      // the emitter's tasks over parameters it would have to invent.
      const first =
        spec.fields.length === 0
          ? [...HOOK_RECIPES, ...FUNCTION_RECIPES, ...RECORD_RECIPES]
          : [...HOOK_RECIPES, ...FUNCTION_RECIPES];
      const found = tryRecipes(d, 'function', first, language, declined);
      if (found) return found;
      const emitted = emitFunction(spec, language);
      if (emitted.recognised) {
        const extra = unexplained(d, FUNCTION_TASK_WORDS);
        if (extra.length === 0)
          return {
            emitted,
            kind: 'implemented',
            reason: 'a task the function emitter knows',
            recipe: 'function-task',
          };
        declined.push(notExplained('the function emitter', extra));
      }
      const records = tryRecipes(d, 'function', RECORD_RECIPES, language, declined);
      if (records) return records;
      const reason = skeletonReason(declined);
      return {
        emitted: markSkeleton(emitFunction(spec, language, { skeleton: true }), reason),
        kind: 'skeleton',
        reason,
      };
    }
    case 'component': {
      const found = tryRecipes(d, 'component', [...HOOK_RECIPES, ...COMPONENT_RECIPES], language, declined);
      if (found) return found;
      const emitted = emitComponent(spec, language);
      const shown = spec.fields.filter((f) => f.type.kind !== 'callback');
      const extra = unexplained(d, DISPLAY_WORDS, wordsOf(spec.rawName));
      const display = hasWord(d, DISPLAY_NOUNS);
      if (shown.length > 0 && extra.length === 0 && declined.length === 0 && display)
        return {
          emitted,
          kind: 'implemented',
          reason: 'a component that shows each of its props',
          recipe: 'display',
        };
      if (shown.length === 0) declined.push('it names no field to show');
      else if (!display) declined.push('it does not ask for a card, a profile or a view of its fields');
      else if (extra.length > 0) declined.push(notExplained('a component that shows its props', extra));
      const reason = skeletonReason(declined);
      return { emitted: markSkeleton(emitted, reason), kind: 'skeleton', reason };
    }
    case 'api': {
      const emitted = emitApi(spec, language);
      if (hasWord(d, /^(fastify|koa|hapi|nest|nestjs|graphql|trpc)$/)) {
        const reason =
          'the catalogue writes Express routers only: the framework the description names is not written';
        return { emitted: markSkeleton(emitted, reason), kind: 'skeleton', reason };
      }
      const extra = unexplained(d, API_WORDS, wordsOf(spec.rawName));
      const data = spec.fields.filter((f) => f.type.kind !== 'callback');
      if (data.length > 0 && extra.length === 0)
        return {
          emitted,
          kind: 'implemented',
          reason: 'Express CRUD routes with validation, status codes and errors',
          recipe: 'express-crud',
        };
      const reason =
        data.length === 0
          ? 'the description names no field, so the routes validate nothing: list the fields as name: type'
          : `${notExplained('the Express CRUD router', extra)}`;
      return { emitted: markSkeleton(emitted, reason), kind: 'skeleton', reason };
    }
    case 'schema': {
      const typed = tryRecipes(d, 'schema', TYPE_RECIPES, language, declined);
      if (typed) return typed;
      const emitted = emitSchema(spec, language);
      const extra = unexplained(d, SCHEMA_WORDS, wordsOf(spec.rawName));
      if (spec.fields.length > 0 && extra.length === 0)
        return {
          emitted,
          kind: 'implemented',
          reason: 'a zod schema and its TypeScript type from the fields',
          recipe: 'zod-schema',
        };
      const reason =
        spec.fields.length === 0
          ? 'the description names no field: list them as name: type'
          : notExplained('a zod schema of the fields', extra);
      return { emitted: markSkeleton(emitted, reason), kind: 'skeleton', reason };
    }
  }
}
