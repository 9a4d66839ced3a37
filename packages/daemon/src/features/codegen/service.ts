import type { GenerateResult } from '@forge/shared';
import type { ModelClient } from '../../capabilities/model/types.ts';
import type { Fleet } from '../../engine/fleet/fleet.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Language } from './generator.ts';

export interface CodegenDeps {
  fleet: Fleet;
  logger: Logger;
  /** The configured model, read at every request (null: the built-in generator answers). */
  model: () => ModelClient | null;
}

export interface GenerateRequest {
  kind: 'component' | 'api' | 'function' | 'schema';
  description: string;
  language?: Language;
}

export interface CodegenService {
  generate(request: GenerateRequest, signal?: AbortSignal): Promise<GenerateResult>;
}

/**
 * CodeGenBot: every generation is one of its fleet jobs (its card says what it last wrote). The
 * built-in generator always writes the draft; a configured model may replace it with code that
 * parses.
 */
export function createCodegenService({ fleet, logger, model }: CodegenDeps): CodegenService {
  return {
    async generate({ kind, description, language = 'typescript' }, signal) {
      // The generator and the checks load the TypeScript compiler: on the first generation, not at start.
      const { generateFromTemplate } = await import('./generator.ts');
      const { writeWithModel } = await import('./model-writer.ts');
      const draft = generateFromTemplate(kind, description, language);
      const label = `generate ${kind} ${draft.result.name}`;
      return fleet.run(
        'CodeGenBot',
        { label },
        async () => {
          const started = performance.now();
          const client = model();
          if (!client) {
            logger.info({ kind, name: draft.result.name, source: 'template' }, 'CodeGenBot generated code');
            return draft.result;
          }
          const outcome = await writeWithModel(client, draft.spec, draft.result, signal);
          const ms = Math.round(performance.now() - started);
          if (!outcome.ok) {
            logger.warn(
              { kind, name: draft.result.name, model: client.model, ms, reason: outcome.reason },
              'CodeGenBot answered with the built-in template: the model’s code was not taken',
            );
            return {
              ...draft.result,
              reason: `${draft.result.reason}; the model's answer was not taken: ${outcome.reason}`,
            };
          }
          logger.info(
            { kind, name: draft.result.name, source: 'model', model: client.model, ms },
            'CodeGenBot generated code',
          );
          return {
            ...draft.result,
            code: outcome.code,
            source: 'model' as const,
            kind: 'implemented' as const,
            reason: `written by the model: it ${outcome.checked}`,
          };
        },
        {
          slot: false,
          summary: (r) =>
            `wrote ${r.fileName} (${r.source === 'model' ? 'model' : 'built-in template'}${r.kind === 'skeleton' ? ', skeleton' : ''})`,
        },
      );
    },
  };
}
