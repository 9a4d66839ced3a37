import { formatCommand, type Diagnosis, type RepairCode } from '@forge/shared';
import { planAddPackages } from './add-packages.ts';
import { planAlignVersions } from './align-versions.ts';
import { planCommonJsExtension, planEsmExtension } from './commonjs-extension.ts';
import { installArgs } from './install-args.ts';
import { readInside, readInsideBytes } from './project.ts';
import { unifiedDiff } from './diff.ts';
import type { InstallMode } from './types.ts';
import { planFrameworkBuild } from './framework-build.ts';
import { planImportCase, planImportExtension } from './import-case.ts';
import { planNodeVersion } from './node-version.ts';
import { planOutputDir } from './output-dir.ts';
import { planDropNodeModules, planLegacyPeers, planReinstallUnfrozen } from './install-repairs.ts';
import type { PlanResult, RepairPlan, RepairTarget } from './types.ts';

/**
 * RepairBot's repair engine (docs/assistants.md): from a diagnosis to a plan worked out in full (versions
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
  USE_COMMONJS_EXTENSION: planCommonJsExtension,
  USE_PEER_COMPATIBLE_VERSION: planLegacyPeers,
  USE_ESM_EXTENSION: planEsmExtension,
  ADD_IMPORT_EXTENSION: planImportExtension,
  PIN_NODE_VERSION: planNodeVersion,
  SET_OUTPUT_DIR: planOutputDir,
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
  const plan = await withOthersPlanned(planned.plan, diagnosis, target);
  const same = await changesNothing(plan, target);
  return same ? { plan: null, reason: same } : { plan };
}

/** How strongly an install mode departs from the plan's install: the stronger of two wins. */
const MODE_RANK: Readonly<Record<InstallMode, number>> = { unfrozen: 1, 'legacy-peer': 2 };

/**
 * The repair of the first error joined by the repairs of the failure's other errors (its `others`),
 * so one pass repairs every repairable error: every import whose case differs is corrected (several
 * in one file one after the other), and a repair of another kind is added when the files it writes
 * are not written by one already planned. What cannot be joined is left out (it remains in the
 * diagnosis, and the build after the repair says whether it is still there).
 */
async function withOthersPlanned(
  first: RepairPlan,
  diagnosis: Diagnosis,
  target: RepairTarget,
): Promise<RepairPlan> {
  const others = (diagnosis.others ?? []).filter((d) => d.repair);
  if (others.length === 0) return first;
  const plans: RepairPlan[] = [first];
  const codes = new Set<RepairCode>([first.code]);
  // Text of every file written so far: a later import-case correction of the same file starts there.
  const pending = new Map<string, string>();
  const remember = (plan: RepairPlan): void => {
    for (const w of plan.writes) if (typeof w.content === 'string') pending.set(w.file, w.content);
  };
  remember(first);
  for (const other of others) {
    if (target.signal?.aborted) break;
    let planned: PlanResult;
    if (other.repair === 'FIX_IMPORT_CASE') {
      planned = await planImportCase(other, target, pending);
    } else if (codes.has(other.repair!)) {
      continue;
    } else {
      planned = await PLANNERS[other.repair!](other, target);
      const written = new Set(plans.flatMap((p) => p.writes.map((w) => w.file)));
      if (planned.plan?.writes.some((w) => written.has(w.file))) continue;
    }
    if (!planned.plan) continue;
    plans.push(planned.plan);
    codes.add(planned.plan.code);
    remember(planned.plan);
  }
  return plans.length === 1 ? first : await joinPlans(plans, target);
}

/** One plan doing what several do: each file written once (its last content), the diff of the whole. */
async function joinPlans(plans: readonly RepairPlan[], target: RepairTarget): Promise<RepairPlan> {
  const writes = new Map<string, RepairPlan['writes'][number]>();
  for (const p of plans) for (const w of p.writes) writes.set(w.file, w);
  const diffs: string[] = [];
  for (const w of writes.values()) {
    if (typeof w.content !== 'string' && w.content !== null) continue;
    diffs.push(
      unifiedDiff([{ file: w.file, before: await readInside(target.projectDir, w.file), after: w.content }]),
    );
  }
  const modes = plans.flatMap((p) => (p.install ? [p.install] : []));
  const install = modes.sort((a, b) => MODE_RANK[b] - MODE_RANK[a])[0];
  const unique = (items: readonly string[]): string[] => [...new Set(items)];
  const nodeModules = unique(
    plans.flatMap((p) => (p.dropNodeModules ? (p.nodeModules ?? ['node_modules']) : [])),
  );
  return {
    code: plans[0]!.code,
    summary: plans.map((p, i) => (i === 0 ? p.summary : p.summary.replace(/^RepairBot /, ''))).join('; '),
    files: unique(plans.flatMap((p) => p.files)),
    diff: diffs.join(''),
    writes: [...writes.values()],
    backup: unique(plans.flatMap((p) => p.backup)),
    ...(install ? { install } : {}),
    ...(nodeModules.length > 0 ? { dropNodeModules: true, nodeModules } : {}),
  };
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
