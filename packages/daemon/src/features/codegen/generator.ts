import type { CodeKind, GenerateResult } from '@forge/shared';
import { readDescription, typeLabel, type Spec } from './grammar.ts';
import type { Language } from './emit-common.ts';
import { answer } from './recipes/index.ts';

export type { Language } from './emit-common.ts';

/** What the built-in generator read and wrote: the answer, the spec a model is told about, the recipe used. */
export interface TemplateOutput {
  spec: Spec;
  result: GenerateResult;
  /** The catalogue's recipe, when the answer is implemented (the checks a model's code must pass). */
  recipe?: string;
}

/**
 * CodeGenBot's built-in generator: read the description (grammar.ts), answer from the catalogue of
 * recipes (recipes/) or with a skeleton that says it is one. Deterministic, offline, never throws
 * for any description the route accepts.
 */
export function generateFromTemplate(
  kind: CodeKind,
  description: string,
  language: Language = 'typescript',
): TemplateOutput {
  const spec = readDescription(kind, description);
  const answered = answer(spec, language);
  return {
    spec,
    ...(answered.recipe ? { recipe: answered.recipe } : {}),
    result: {
      code: answered.emitted.code,
      language,
      fileName: answered.emitted.fileName,
      source: 'template',
      name: answered.emitted.name,
      fields: spec.fields.map((f) => ({ name: f.name, type: typeLabel(f.type), optional: f.optional })),
      kind: answered.kind,
      reason: answered.reason,
    },
  };
}
