import type { Blueprint, RepairCode } from '@forge/shared';
import type { BuildRun } from './build-run.ts';
import { noteRepair } from './repair-loop.ts';

/**
 * Repairs the engine makes on its own, recorded like RepairBot's so every repair of a build is in
 * one list: the framework's build command for a project with no build script (BlueprintBot's plan),
 * and node_modules uploaded from another machine left out (ExtractBot) to be installed here.
 * Neither changes a project file, so neither has anything to undo.
 */
export function noteBuiltInRepairs(run: BuildRun, bp: Blueprint, droppedModules: string[]): void {
  const at = new Date().toISOString();
  const note = (code: RepairCode, summary: string, files: string[]) => {
    if (run.snapshot().repairs.some((r) => r.code === code)) return;
    run.log('RepairBot', 'info', summary);
    noteRepair(run, {
      id: `${run.id}:${code}`,
      code,
      summary,
      files,
      status: 'applied',
      diff: '',
      at,
      buildId: run.id,
    });
  };
  const frameworkBuild = bp.decisions.find((d) => d.field === 'build' && /^no "build" script/.test(d.rule));
  if (frameworkBuild && bp.build) {
    note(
      'USE_FRAMEWORK_BUILD',
      `RepairBot used the framework's build command: ${frameworkBuild.value} (package.json has no "build" script)`,
      [],
    );
  }
  if (droppedModules.length) {
    note(
      'DROP_FOREIGN_NODE_MODULES',
      `RepairBot left out the uploaded ${droppedModules.join(', ')} (installed on another machine, its native parts may not run here): dependencies are installed afresh`,
      droppedModules,
    );
  }
}
