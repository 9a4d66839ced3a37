import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnosis } from '@forge/shared';
import { realWithin } from '../../fs/contain.ts';
import { installTool } from './install-args.ts';
import { lockfileOf, relJoin } from './project.ts';
import { planPeerVersion } from './peer-version.ts';
import type { PlanResult, RepairTarget } from './types.ts';

/** Repairs that change how the next install runs, not the project's files (bar the lockfile it rewrites). */

/** Why an install-mode repair cannot apply, or null when the plan's install is one RepairBot can change. */
function installRefusal(target: RepairTarget): string | null {
  const argv = target.blueprint.install;
  if (!argv) return 'the project has no install step';
  if (!installTool(argv))
    return `the install is the project's own command (${argv.join(' ')}): RepairBot does not change it`;
  return null;
}

/** REINSTALL_UNFROZEN: install without the frozen lockfile so the package manager brings it up to date. */
export async function planReinstallUnfrozen(
  _diagnosis: Diagnosis,
  target: RepairTarget,
): Promise<PlanResult> {
  const refusal = installRefusal(target);
  if (refusal) return { plan: null, reason: refusal };
  const lockfile = await lockfileOf(target.projectDir, target.blueprint);
  if (!lockfile?.exists) return { plan: null, reason: 'the project has no lockfile to bring up to date' };
  return {
    plan: {
      code: 'REINSTALL_UNFROZEN',
      summary: `RepairBot reinstalls without the frozen lockfile: ${lockfile.file} will be updated to match package.json`,
      files: [lockfile.file],
      diff: '',
      writes: [],
      backup: [lockfile.file],
      install: 'unfrozen',
    },
  };
}

/** LEGACY_PEER_DEPS: install again with npm's --legacy-peer-deps, or pnpm's strict peer dependencies off. */
export async function planLegacyPeers(diagnosis: Diagnosis, target: RepairTarget): Promise<PlanResult> {
  const refusal = installRefusal(target);
  if (refusal) return { plan: null, reason: refusal };
  const tool = installTool(target.blueprint.install!);
  let mode: string;
  if (tool === 'npm') mode = "npm's --legacy-peer-deps";
  else if (tool === 'pnpm')
    mode = "pnpm's strict peer dependencies off (--config.strict-peer-dependencies=false)";
  else {
    return {
      plan: null,
      reason: `${tool} does not fail an install on conflicting peer dependencies: there is no legacy peer mode to retry with`,
    };
  }
  // Legacy peer mode is the last resort: a version the registry has whose peers accept the
  // project's comes first (the same plan, once written, is what a trial or the rebuild proves).
  if (diagnosis.repair === 'LEGACY_PEER_DEPS') {
    const compatible = await planPeerVersion(diagnosis, target);
    if (compatible) return { plan: compatible };
  }
  const lockfile = await lockfileOf(target.projectDir, target.blueprint);
  const conflict = diagnosis.subjects?.length ? ` (peer conflict: ${diagnosis.subjects.join(', ')})` : '';
  return {
    plan: {
      code: 'LEGACY_PEER_DEPS',
      summary: `RepairBot retries the install with ${mode}${conflict}`,
      files: lockfile?.exists ? [lockfile.file] : [],
      diff: '',
      writes: [],
      backup: lockfile ? [lockfile.file] : [],
      install: 'legacy-peer',
    },
  };
}

/** DROP_FOREIGN_NODE_MODULES: remove node_modules built for another platform; the install puts it back. */
export async function planDropNodeModules(_diagnosis: Diagnosis, target: RepairTarget): Promise<PlanResult> {
  const refusal = installRefusal(target);
  if (refusal) return { plan: null, reason: refusal };
  const { appDir, installDir } = target.blueprint;
  const root = await realpath(target.projectDir);
  const present: string[] = [];
  for (const dir of new Set([relJoin(installDir, 'node_modules'), relJoin(appDir, 'node_modules')])) {
    const real = await realWithin(root, path.join(root, dir));
    if (real !== null && (await stat(real)).isDirectory()) present.push(dir);
  }
  if (present.length === 0) return { plan: null, reason: 'the project has no node_modules to remove' };
  const lockfile = await lockfileOf(target.projectDir, target.blueprint);
  const locked = lockfile?.exists === true;
  return {
    plan: {
      code: 'DROP_FOREIGN_NODE_MODULES',
      summary: 'RepairBot removed node_modules built for another platform; dependencies are installed afresh',
      files: [],
      diff: '',
      writes: [],
      // Without a lockfile the fresh install writes one: undo removes it again.
      backup: !locked && lockfile ? [lockfile.file] : [],
      ...(locked ? {} : { install: 'unfrozen' as const }),
      dropNodeModules: true,
      nodeModules: present,
    },
  };
}
