import { formatCommand, type Diagnosis, type RepairCode } from '@forge/shared';
import { planAddPackages } from './add-packages.ts';
import { planAlignVersions } from './align-versions.ts';
import { installArgs } from './install-args.ts';
import { readInsideBytes } from './project.ts';
import { planFrameworkBuild } from './framework-build.ts';
import { planImportCase } from './import-case.ts';
import { planDropNodeModules, planLegacyPeers, planReinstallUnfrozen } from './install-repairs.ts';
import type { PlanResult, RepairPlan, RepairTarget } from './types.ts';

/**
 * RepairBot's repair engine (issue 11 §2): from a diagnosis to a plan worked out in full (versions
 * resolved, new contents and their diff computed), applied with a backup of every file it touches,
 * and restored from that backup on undo. Each repair changes only what it must and declines, with
 * the reason, whenever it would have to guess.
 */

export type { FileWrite, InstallMode, PlanResult, RepairCommand, RepairPlan, RepairTarget } from './types.ts';
export { applyPlan, restoreBackup, type ApplyOptions } from './apply.ts';
export { installArgs, installTool, LOCKFILES } from './install-args.ts';
export { binaryTarget, foreignBinaries, isForeign, type BinaryTarget } from './foreign-binaries.ts';
export { FRAMEWORK_BUILDS, frameworkBuild } from './framework-build.ts';
export { isValidPackageName, packageNameOf } from '../package-name.ts';

const PLANNERS: Readonly<Record<RepairCode, (d: Diagnosis, t: RepairTarget) => Promise<PlanResult>>> = {
  ADD_MISSING_PACKAGES: planAddPackages,
  FIX_IMPORT_CASE: planImportCase,
  REINSTALL_UNFROZEN: planReinstallUnfrozen,
  LEGACY_PEER_DEPS: planLegacyPeers,
  USE_FRAMEWORK_BUILD: planFrameworkBuild,
  DROP_FOREIGN_NODE_MODULES: planDropNodeModules,
  ALIGN_PACKAGE_VERSIONS: planAlignVersions,
};

/**
 * The repair that fits a diagnosis (its `repair`), fully worked out, or null with why none is safe —
 * or why it would change nothing: a repair that changes nothing is never made, so the build is not
 * run again into the same failure.
 */
export async function planRepair(diagnosis: Diagnosis, target: RepairTarget): Promise<PlanResult> {
  if (!diagnosis.repair) return { plan: null, reason: `RepairBot has no safe repair for ${diagnosis.code}` };
  if (target.signal?.aborted) return { plan: null, reason: 'the repair was cancelled' };
  const planned = await PLANNERS[diagnosis.repair](diagnosis, target);
  if (!planned.plan) return planned;
  const same = await changesNothing(planned.plan, target);
  return same ? { plan: null, reason: same } : planned;
}

/** Why a worked-out plan would leave the project and its install exactly as they are, or null when it changes something. */
async function changesNothing(plan: RepairPlan, target: RepairTarget): Promise<string | null> {
  for (const w of plan.writes) {
    const now = await readInsideBytes(target.projectDir, w.file);
    if (w.content === null ? now !== null : now === null || !now.equals(Buffer.from(w.content))) return null;
  }
  if (plan.dropNodeModules && (plan.nodeModules ?? ['node_modules']).length > 0) return null;
  const base = target.blueprint.install;
  if (plan.install && base) {
    const pm = target.blueprint.packageManager;
    const now = target.installMode ? installArgs(pm, target.installMode, base) : [...base];
    const next = installArgs(pm, plan.install, base);
    if (formatCommand(next) !== formatCommand(now)) return null;
    return `it would change nothing: the install already runs as the repair asks (${formatCommand(now)})${plan.writes.length ? ' and the files already say what it would write' : ''}`;
  }
  return plan.writes.length
    ? `it would change nothing: ${plan.writes.map((w) => w.file).join(', ')} already say${plan.writes.length === 1 ? 's' : ''} what the repair would write`
    : 'it would change nothing';
}

/** Thrown by checkRepair's runner: the planner got as far as running a command, so the repair may change something. */
class CommandNeeded extends Error {}

/**
 * Why a diagnosis's repair would not be made now (it no longer applies, or would change nothing),
 * found without running any command — every planner refuses before it asks the package manager
 * anything — or null when the repair may well be made. `forge fix` asks this before it starts a build.
 */
export async function checkRepair(
  diagnosis: Diagnosis,
  target: Omit<RepairTarget, 'run' | 'signal'>,
): Promise<string | null> {
  try {
    const planned = await planRepair(diagnosis, {
      ...target,
      run: () => Promise.reject(new CommandNeeded()),
    });
    return planned.plan ? null : planned.reason;
  } catch (error) {
    if (error instanceof CommandNeeded) return null;
    throw error;
  }
}
