import type { CodeKind, GenerateResult } from '@forge/shared';
import { readDescription, typeLabel, type Spec } from './grammar.ts';
import type { Emitted, Language } from './emit-common.ts';
import { emitApi } from './emit-api.ts';
import { emitComponent } from './emit-component.ts';
import { emitFunction } from './emit-function.ts';
import { emitSchema } from './emit-schema.ts';

export type { Language } from './emit-common.ts';

const EMITTERS: Record<CodeKind, (spec: Spec, language: Language) => Emitted> = {
  component: emitComponent,
  api: emitApi,
  function: emitFunction,
  schema: emitSchema,
};

/** What the built-in generator read and wrote: the answer, and the spec a model is told about. */
export interface TemplateOutput {
  spec: Spec;
  result: GenerateResult;
}

/**
 * CodeGenBot's built-in generator: read the description (grammar.ts), write the kind's code.
 * Deterministic, offline, never throws for any description the route accepts.
 */
export function generateFromTemplate(
  kind: CodeKind,
  description: string,
  language: Language = 'typescript',
): TemplateOutput {
  const spec = readDescription(kind, description);
  const emitted = EMITTERS[kind](spec, language);
  return {
    spec,
    result: {
      code: emitted.code,
      language,
      fileName: emitted.fileName,
      source: 'template',
      name: emitted.name,
      fields: spec.fields.map((f) => ({ name: f.name, type: typeLabel(f.type), optional: f.optional })),
    },
  };
}
