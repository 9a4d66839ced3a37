import path from 'node:path';
import { formatCommand, formatDuration, type Blueprint } from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import { OutputEvidence } from '../../capabilities/tool-output/first-error.ts';
import { DiskFullWatch } from '../../fs/disk-full.ts';
import { isInsideReal } from '../../fs/contain.ts';
import { discardDir } from '../../fs/moves.ts';
import { commandFailure, diskFullFailure, type Step, type StepContext, type StepResult } from './types.ts';

/** BuildBot: run the project's build command in its folder. */
export function buildStep(deps: { layout: HomeLayout }): Step<Blueprint, void> {
  return {
    name: 'build',
    bot: 'BuildBot',
    label: (projectName) => `build ${projectName}`,
    run: (ctx, bp) =>
      buildIn(ctx, bp, { layout: deps.layout, root: deps.layout.projectDir(ctx.projectName) }),
  };
}

/** The build of the project at `root`: the project's folder, or RepairBot's scratch copy of it. */
export async function buildIn(
  ctx: StepContext,
  bp: Blueprint,
  where: { layout: HomeLayout; root: string },
): Promise<StepResult<void>> {
  const deps = where;
  const argv = bp.build!;
  const text = formatCommand(argv);
  const projectDir = where.root;
  const cwd = path.join(projectDir, bp.appDir);
  // Its first error line and last lines, for a failure that says more than the exit code.
  const output = new OutputEvidence({ projectDir, cwd });
  const space = new DiskFullWatch();
  const result = await ctx.run({
    argv,
    cwd,
    env: bp.env,
    timeoutMs: bp.timeoutMs,
    onLine: (line) => {
      output.onLine(line);
      space.onLine(line);
    },
    // An app of a workspace builds what it depends on elsewhere in the project (packages/ui/dist)
    // and resolves links into the root's node_modules: the whole project is its place.
    ...(bp.appDir !== '.' ? { writable: [projectDir] } : {}),
  });
  const failed = commandFailure(result, text, 'BUILD_FAILED', output);
  const full = diskFullFailure(failed, text, space, projectDir);
  if (full) {
    // What it wrote before the disk filled is no output: removed, and its space given back.
    const partial = path.join(cwd, bp.outputDir ?? 'dist');
    if (partial !== cwd && isInsideReal(projectDir, partial)) discardDir(partial, deps.layout.tmpDir);
    return { ok: false, failure: full };
  }
  if (failed) return { ok: false, failure: failed };
  const took = formatDuration(result.durationMs);
  ctx.log('success', `${text} finished in ${took}`);
  return { ok: true, value: undefined, detail: `${text} (${took})` };
}
