import { formatCommand, formatDuration, type Blueprint } from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import { commandFailure, type Stage } from './types.ts';

/** BuildBot: run the project's build command in its folder. */
export function buildStage(deps: { layout: HomeLayout }): Stage<Blueprint, void> {
  return {
    step: 'build',
    bot: 'BuildBot',
    label: (projectName) => `build ${projectName}`,
    async run(ctx, bp) {
      const argv = bp.build!;
      const text = formatCommand(argv);
      const result = await ctx.run({
        argv,
        cwd: deps.layout.projectDir(ctx.projectName),
        env: bp.env,
        timeoutMs: bp.timeoutMs,
      });
      const failed = commandFailure(result, text, 'BUILD_FAILED');
      if (failed) return { ok: false, failure: failed };
      const took = formatDuration(result.durationMs);
      ctx.log('success', `${text} finished in ${took}`);
      return { ok: true, value: undefined, detail: `${text} (${took})` };
    },
  };
}
