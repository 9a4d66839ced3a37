import crypto from 'node:crypto';
import path from 'node:path';
import type { Blueprint, Diagnosis, Repair } from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import type { RepairJournal } from '../../capabilities/repair/journal.ts';
import { applyPlan, planRepair, type InstallMode, type RepairPlan } from '../../capabilities/repair/index.ts';
import type { Step } from './types.ts';
import { tryRepair, type TrialRequest } from './verify-repair.ts';

/** How long RepairBot's own commands (resolving a version with the package manager) may take. */
const REPAIR_COMMAND_TIMEOUT_MS = 60_000;

export interface RepairStepInput {
  diagnosis: Diagnosis;
  blueprint: Blueprint;
  /** Make the repair (autoRepair on, or `forge fix`), or only work it out and propose it. */
  apply: boolean;
  /** How the install runs now, when an earlier repair of this build changed it. */
  installMode?: InstallMode;
  /** A proposal is tried on a scratch copy first (the failed step again): shown labelled, or dropped. */
  trial?: TrialRequest;
}

/** A repair worked out: made (journaled, files saved for undo) or proposed. */
export interface RepairDone {
  repair: Repair;
  plan: RepairPlan;
  /** Where the files it changed were saved (applied only): undo puts them back. */
  backupDir?: string;
}

const PROPOSED_VERBS: Record<string, string> = {
  added: 'add',
  changed: 'change',
  removed: 'remove',
  reinstalls: 'reinstall',
  retries: 'retry',
  used: 'use',
  left: 'leave',
};

/** A plan's summary (worded as done: "RepairBot added x") as a proposal: "RepairBot would add x". */
export function proposedSummary(summary: string): string {
  // A repair joined from several says each of its parts after "; " with its own verb.
  return summary.replace(/(^RepairBot |; )(\w+)/g, (all, lead: string, verb: string) =>
    PROPOSED_VERBS[verb] ? `${lead === '; ' ? '; ' : 'RepairBot would '}${PROPOSED_VERBS[verb]}` : all,
  );
}

/** A unique folder for the files one repair changes, kept for `forge fix --undo`. */
export const newBackupDir = (layout: HomeLayout, projectName: string): string =>
  path.join(layout.repairsDir(projectName), `${Date.now()}-${crypto.randomBytes(4).toString('hex')}`);

/**
 * RepairBot: the repair that fits ScanBot's diagnosis, worked out in full (versions resolved with
 * the project's own package manager, new file contents, the diff). Applied, it saves every file it
 * changes first and goes into the project's repair journal; proposed, it only goes into the build's
 * record, for FixIt's apply button and `forge fix`.
 */
export function repairStep(deps: {
  layout: HomeLayout;
  journal: RepairJournal;
  /** Whether the machine's sandbox is used: a server app started on a trial's copy runs in it too. */
  sandbox?: boolean;
}): Step<RepairStepInput, RepairDone | null> {
  const { layout, journal } = deps;
  return {
    name: 'repair',
    bot: 'RepairBot',
    label: (projectName, input) => `repair ${projectName} (${input.diagnosis.repair ?? 'none'})`,
    async run(ctx, { diagnosis, blueprint, apply, installMode, trial }) {
      const projectDir = layout.projectDir(ctx.projectName);
      const planned = await planRepair(diagnosis, {
        projectDir,
        blueprint,
        ...(installMode ? { installMode } : {}),
        signal: ctx.signal,
        run: (command) =>
          ctx.run({
            argv: command.argv,
            cwd: command.cwd,
            env: command.env ?? blueprint.env,
            timeoutMs: command.timeoutMs ?? REPAIR_COMMAND_TIMEOUT_MS,
            ...(command.onLine
              ? {
                  onLine: (line: { stream: 'stdout' | 'stderr'; text: string }) =>
                    command.onLine!(line.text, line.stream),
                }
              : {}),
          }),
      });
      if (!planned.plan) {
        ctx.log('info', `No safe repair: ${planned.reason}`);
        return { ok: true, value: null, detail: planned.reason, stepStatus: 'skipped' };
      }
      const { plan } = planned;
      const at = new Date().toISOString();
      if (!apply) {
        const tried = trial
          ? await tryRepair(ctx, layout, {
              plan,
              blueprint,
              ...(installMode ? { installMode } : {}),
              trial,
              sandbox: deps.sandbox ?? false,
            })
          : null;
        const verification = tried?.verification;
        if (verification?.status === 'fails') {
          const reason = `${plan.code} was not proposed: ${verification.detail}`;
          ctx.log('warn', `Dropped the repair "${proposedSummary(plan.summary)}": ${verification.detail}`);
          return { ok: true, value: null, detail: reason, stepStatus: 'skipped' };
        }
        if (verification) {
          ctx.log(
            verification.status === 'passes' ? 'success' : 'info',
            `${plan.code} ${verification.detail}`,
          );
        }
        const repair: Repair = {
          id: `${ctx.buildId}:${plan.code}`,
          code: plan.code,
          summary: proposedSummary(plan.summary),
          files: plan.files,
          status: 'proposed',
          diff: plan.diff,
          at,
          buildId: ctx.buildId,
          ...(verification ? { verification } : {}),
        };
        ctx.log(
          'info',
          `${proposedSummary(plan.summary)} (autoRepair is off). Apply it in FixIt or with: forge fix ${ctx.buildId}`,
        );
        return { ok: true, value: { repair, plan }, detail: `proposed: ${plan.summary}` };
      }
      const backupDir = newBackupDir(layout, ctx.projectName);
      await applyPlan(plan, projectDir, backupDir, {
        scratchDir: layout.tmpDir,
        scope: { installDir: blueprint.installDir, appDir: blueprint.appDir },
      });
      const { repair } = journal.add({
        projectName: ctx.projectName,
        backupDir,
        repair: {
          code: plan.code,
          summary: plan.summary,
          files: plan.files,
          status: 'applied',
          diff: plan.diff,
          at,
          buildId: ctx.buildId,
        },
      });
      ctx.log('success', plan.summary);
      return { ok: true, value: { repair, plan, backupDir }, detail: plan.summary };
    },
  };
}
