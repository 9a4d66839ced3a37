import path from 'node:path';
import {
  isFinished,
  type Build,
  type FixResult,
  type Repair,
  type RepairCode,
  type ServerMessage,
  type UndoRepairResult,
} from '@forge/shared';
import type { Logger } from '../../logging/logger.ts';
import type { HomeLayout } from '../../home-layout.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { checkRepair, restoreBackup } from '../../capabilities/repair/index.ts';
import type { BuildRepo } from '../../engine/build-repo.ts';
import type { BuildService } from '../builds/service.ts';
import type { JournalEntry, RepairJournal } from '../../capabilities/repair/journal.ts';

export interface RepairServiceDeps {
  layout: HomeLayout;
  repo: BuildRepo;
  builds: BuildService;
  journal: RepairJournal;
  logger: Logger;
  broadcast: (message: ServerMessage) => void;
}

/** Builds ScanBot diagnosed: a failure of the project's own commands or plan. */
const failed = (b: Build): boolean => b.status === 'failed' || b.status === 'timed-out';

/**
 * RepairBot's service outside a build: apply the repair proposed for a failed build (FixIt's apply
 * button, `forge fix`, the chat's "fix", the assistant's "fix modules") by starting a build that
 * makes it first; the project's repair journal; undo, which puts back the files a repair changed.
 */
export function createRepairService(deps: RepairServiceDeps) {
  const { layout, repo, builds, journal, logger } = deps;

  const tell = (projectName: string, level: 'info' | 'success' | 'warn', message: string) =>
    deps.broadcast({
      type: 'log',
      botName: 'RepairBot',
      level,
      message,
      projectName,
      timestamp: new Date().toISOString(),
    });

  async function fix(buildId: string, codes?: RepairCode[]): Promise<FixResult> {
    const build = builds.get(buildId);
    if (!isFinished(build.status) || !failed(build)) {
      throw new ForgeError(
        'NOTHING_TO_FIX',
        `Build ${build.id} did not fail (it is ${build.status}): there is nothing to repair.`,
      );
    }
    const diagnosis = build.diagnosis;
    const code = diagnosis?.repair;
    if (!diagnosis || !code) {
      const why = diagnosis ? `ScanBot's diagnosis: ${diagnosis.summary}` : 'it has no diagnosis';
      throw new ForgeError('NOTHING_TO_FIX', `RepairBot has no safe repair for build ${build.id} (${why}).`);
    }
    if (codes && !codes.includes(code)) {
      throw new ForgeError(
        'NOTHING_TO_FIX',
        `Build ${build.id} can only be repaired with ${code}, which was not asked for (${codes.join(', ')}).`,
      );
    }
    // A repair that no longer applies, or would change nothing, starts no build: it would only fail
    // the same way. Found without running anything, before a build exists.
    const nothing = build.blueprint
      ? await checkRepair(diagnosis, {
          projectDir: layout.projectDir(build.projectName),
          blueprint: build.blueprint,
        })
      : null;
    if (nothing) refuseNothing(build, code, nothing, null);
    type Made = { repairs: Repair[]; nothingBecause?: string | undefined };
    let applied!: (made: Made) => void;
    const made = new Promise<Made>((resolve) => (applied = resolve));
    const next = builds.startBuild(build.projectName, {
      noCache: true,
      fix: { diagnosis, onApplied: (repairs, nothingBecause) => applied({ repairs, nothingBecause }) },
    });
    // Answer once the repair is made (or found not to apply), not when the whole build ends.
    const ended: Promise<Made> =
      builds.running(next.id)?.done.then(() => ({ repairs: [] })) ?? Promise.resolve({ repairs: [] });
    const { repairs, nothingBecause } = await Promise.race([made, ended]);
    if (repairs.length === 0 && nothingBecause) refuseNothing(build, code, nothingBecause, next.id);
    const message = repairs.length
      ? `${repairs.map((r) => r.summary).join('; ')}. Build ${next.id} is running with the repair.`
      : `RepairBot made no repair for ${code}; build ${next.id} runs with the project as it is.`;
    logger.info({ buildId: build.id, next: next.id, repairs: repairs.map((r) => r.id) }, 'fix applied');
    return { repairs, buildId: next.id, message };
  }

  /** NOTHING_TO_FIX for a repair RepairBot would not make, with why; told to the project's log too. */
  function refuseNothing(build: Build, code: RepairCode, why: string, stopped: string | null): never {
    const message =
      `RepairBot has nothing to change for build ${build.id} (${code}): ${why}. ` +
      (stopped
        ? `Build ${stopped} stopped without running the project's commands again.`
        : 'No build was started: it would fail the same way.');
    tell(build.projectName, 'warn', message);
    throw new ForgeError('NOTHING_TO_FIX', message);
  }

  return {
    /** The project's repairs made by RepairBot (applied, failed, undone), newest first. */
    list(projectName: string): Repair[] {
      if (!repo.project(projectName)) {
        throw new ForgeError('PROJECT_NOT_FOUND', `There is no project named "${projectName}".`);
      }
      return journal.list(projectName);
    },

    fix,

    /** Fix the newest build of a project, when it failed with a repair ScanBot proposed. */
    async fixLatest(projectName: string, codes?: RepairCode[]): Promise<FixResult> {
      const latest = repo.list({ project: projectName, limit: 1 })[0];
      if (!latest) throw new ForgeError('NOTHING_TO_FIX', `Project "${projectName}" has no build yet.`);
      if (!failed(latest)) {
        throw new ForgeError(
          'NOTHING_TO_FIX',
          `The last build of ${projectName} (${latest.id}) is ${latest.status}: there is nothing to repair.`,
        );
      }
      return fix(latest.id, codes);
    },

    /**
     * Put back the files of the newest applied repairs — every repair made by the same build,
     * newest first — or of one repair by id. The project's files are then exactly as they were.
     */
    async undo(projectName: string, id?: string): Promise<UndoRepairResult> {
      if (!repo.project(projectName)) {
        throw new ForgeError('PROJECT_NOT_FOUND', `There is no project named "${projectName}".`);
      }
      const applied = journal.applied(projectName);
      let chosen: JournalEntry[];
      if (id) {
        const one = applied.find((e) => e.repair.id === id);
        if (!one)
          throw new ForgeError('REPAIR_NOT_FOUND', `Project "${projectName}" has no applied repair ${id}.`);
        chosen = [one];
      } else {
        const newest = applied[0];
        if (!newest)
          throw new ForgeError('NOTHING_TO_FIX', `Project "${projectName}" has no repair to undo.`);
        chosen = applied.filter((e) => e.repair.buildId === newest.repair.buildId);
      }
      const projectDir = layout.projectDir(projectName);
      const files = new Set<string>();
      const restored: Repair[] = [];
      for (const entry of chosen) {
        if (entry.backupDir) {
          for (const f of await restoreBackup(entry.backupDir, projectDir))
            files.add(f.split(path.sep).join('/'));
        }
        restored.push(
          journal.update(entry.repair.id, { status: 'undone', at: new Date().toISOString() }).repair,
        );
      }
      const list = [...files].sort();
      const message = `RepairBot undid ${restored.map((r) => r.id).join(', ')}: ${
        list.length ? `restored ${list.join(', ')}` : 'no file to restore'
      }.`;
      tell(projectName, 'success', message);
      return { restored, files: list, message };
    },
  };
}

export type RepairService = ReturnType<typeof createRepairService>;
