import type { Blueprint } from '@forge/shared';
import type { BuildRepo } from '../build-repo.ts';
import type { HomeLayout } from '../../home-layout.ts';
import { detectBlueprint } from '../../capabilities/detect/index.ts';
import type { Step } from './types.ts';

/** BlueprintBot: work out what the project is and how to build it, each decision with its evidence. */
export function detectStep(deps: {
  layout: HomeLayout;
  repo: Pick<BuildRepo, 'project'>;
}): Step<void, Blueprint> {
  return {
    name: 'detect',
    bot: 'BlueprintBot',
    label: (projectName) => `plan ${projectName}`,
    async run(ctx) {
      // The app chosen for a repository of several (upload --app, a build's app, project settings).
      const app = deps.repo.project(ctx.projectName)?.app ?? undefined;
      const bp = await detectBlueprint(deps.layout.projectDir(ctx.projectName), app ? { app } : {});
      ctx.record({ blueprint: bp });
      const pm = bp.packageManager ? `, ${bp.packageManager}` : '';
      const out = bp.outputDir && bp.kind === 'static-build' ? `, output ${bp.outputDir}/` : '';
      ctx.log('info', `Plan: ${bp.framework} (${bp.kind})${pm}${out}`);
      return { ok: true, value: bp, detail: `${bp.framework} (${bp.kind})` };
    },
  };
}
