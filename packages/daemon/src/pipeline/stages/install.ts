import fs from 'node:fs';
import path from 'node:path';
import { formatCommand, formatDuration, type Blueprint } from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import { discardDir } from '../../fs/moves.ts';
import { installKey, readInstallKey, writeInstallKey } from '../../features/builds/install-cache.ts';
import { commandFailure, type Stage } from './types.ts';

/**
 * DependencyBot: install the project's dependencies with its own package manager, or reuse the
 * node_modules of an earlier install with the same install key (lockfile, package.json, package
 * manager, Node), kept in the project or set aside by ExtractBot.
 */
export function installStage(deps: { layout: HomeLayout }): Stage<Blueprint, void> {
  const { layout } = deps;
  return {
    step: 'install',
    bot: 'DependencyBot',
    label: (projectName) => `install ${projectName}`,
    async run(ctx, bp) {
      const argv = bp.install!;
      const projectDir = layout.projectDir(ctx.projectName);
      const nodeModules = path.join(projectDir, 'node_modules');
      const kept = path.join(layout.depsDir(ctx.projectName), 'node_modules');
      const key = await installKey(projectDir, bp);
      if ((await readInstallKey(nodeModules)) !== key && (await readInstallKey(kept)) === key) {
        discardDir(nodeModules, layout.tmpDir);
        fs.renameSync(kept, nodeModules);
      }
      if ((await readInstallKey(nodeModules)) === key) {
        ctx.log('success', 'Dependencies unchanged since the last install: reusing node_modules.');
        return {
          ok: true,
          value: undefined,
          detail: 'reused node_modules (lockfile unchanged)',
          stepStatus: 'cached',
        };
      }
      discardDir(nodeModules, layout.tmpDir);
      const text = formatCommand(argv);
      const result = await ctx.run({ argv, cwd: projectDir, env: bp.env, timeoutMs: bp.timeoutMs });
      const failed = commandFailure(result, text, 'INSTALL_FAILED');
      if (failed) return { ok: false, failure: failed };
      await writeInstallKey(nodeModules, key);
      const took = formatDuration(result.durationMs);
      ctx.log('success', `${text} finished in ${took}`);
      return { ok: true, value: undefined, detail: `${text} (${took})` };
    },
  };
}
