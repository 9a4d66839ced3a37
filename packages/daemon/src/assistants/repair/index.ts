import type { Diagnosis, RepairCode } from '@forge/shared';
import { planAddPackages } from './add-packages.ts';
import { planFrameworkBuild } from './framework-build.ts';
import { planImportCase } from './import-case.ts';
import { planDropNodeModules, planLegacyPeers, planReinstallUnfrozen } from './install-repairs.ts';
import type { PlanResult, RepairTarget } from './types.ts';

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
};

/** The repair that fits a diagnosis (its `repair`), fully worked out, or null with why none is safe. */
export async function planRepair(diagnosis: Diagnosis, target: RepairTarget): Promise<PlanResult> {
  if (!diagnosis.repair) return { plan: null, reason: `RepairBot has no safe repair for ${diagnosis.code}` };
  if (target.signal?.aborted) return { plan: null, reason: 'the repair was cancelled' };
  return PLANNERS[diagnosis.repair](diagnosis, target);
}
