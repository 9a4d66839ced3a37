import type { Blueprint, BuildError, Diagnosis, StepName } from '@forge/shared';
import type { BuildRepo } from '../build-repo.ts';
import type { HomeLayout } from '../../home-layout.ts';
import { diagnose } from '../../capabilities/diagnose/index.ts';
import type { Step } from './types.ts';

/** Output lines ScanBot reads of a failed step: the newest ones, where the error is. */
export const DIAGNOSE_MAX_LINES = 5_000;

export interface DiagnoseStepInput {
  /** The step that failed, and the bot that ran it (its output lines are the ones read). */
  step: StepName | null;
  bot: string;
  status: 'failed' | 'timed-out';
  error: BuildError;
  blueprint: Blueprint | null;
}

/**
 * ScanBot: read what the failed step printed (from the build's stored log) and the project, and
 * say what is wrong, where, and what to do — the diagnosis every failed build carries.
 */
export function diagnoseStep(deps: {
  layout: HomeLayout;
  repo: Pick<BuildRepo, 'logs'>;
}): Step<DiagnoseStepInput, Diagnosis> {
  return {
    name: 'diagnose',
    bot: 'ScanBot',
    label: (projectName) => `diagnose ${projectName}`,
    async run(ctx, input) {
      const build = ctx.build();
      const started = [...build.steps].reverse().find((s) => s.name === input.step)?.startedAt ?? '';
      const lines = deps.repo
        .logs(ctx.buildId, 0, 100_000)
        .filter((row) => row.botName === input.bot && row.ts >= started)
        .map((row) => row.message)
        .slice(-DIAGNOSE_MAX_LINES);
      const diagnosis = await diagnose({
        step: input.step,
        status: input.status,
        error: input.error,
        lines,
        blueprint: input.blueprint,
        projectDir: deps.layout.projectDir(ctx.projectName),
        stepStartedAt: started ? Date.parse(started) : null,
      });
      const where = diagnosis.file
        ? ` (${diagnosis.file}${diagnosis.line ? `:${diagnosis.line}${diagnosis.column ? `:${diagnosis.column}` : ''}` : ''})`
        : '';
      ctx.log('warn', `Diagnosis: ${diagnosis.summary}${where}`);
      if (diagnosis.suggestion) ctx.log('info', `Suggestion: ${diagnosis.suggestion}`);
      return { ok: true, value: diagnosis, detail: `${diagnosis.code}: ${diagnosis.summary}` };
    },
  };
}
