import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { RepairCode, type Repair } from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import type { Logger } from '../../logging/logger.ts';
import { discardDir } from '../../fs/moves.ts';
import { applyPlan } from '../../capabilities/repair/apply.ts';
import { checkRelPath } from '../../fs/safe-path.ts';
import { extractArchive } from '../../capabilities/extract/index.ts';
import { newBackupDir } from '../../engine/steps/repair.ts';
import { zipDirToFile } from '../../capabilities/artifacts/zip-dir.ts';
import type { RepairJournal } from '../../capabilities/repair/journal.ts';

/**
 * RepairBot on a worker changes the worker's copy of the project. So that the coordinator's project
 * (the one the editor shows, the next build starts from, undo puts back) has the same files, the
 * worker sends, once the build has ended and before its end is reported, the files its applied
 * repairs changed as they are then (a lockfile its reinstall rewrote included). The coordinator
 * applies them as a repair of its own — its files saved first, a journal entry made — so undo works
 * there, and answers with its own repair ids, which replace the worker's in the build's record.
 */

const MANIFEST = 'manifest.json';
const FILES = 'files';
/** The folder every entry of the ZIP is put under (the receiving extraction strips it). */
const ZIP_PREFIX = 'repairs/';

const Manifest = z.array(
  z.object({
    id: z.string().max(100),
    code: RepairCode,
    summary: z.string(),
    diff: z.string(),
    at: z.string(),
    files: z.array(z.string().max(1_000)).max(1_000),
  }),
);

/** Repairs of `buildId` that changed files and were applied (not proposed). */
export const appliedRepairsOf = (repairs: readonly Repair[], buildId: string): Repair[] =>
  repairs.filter((r) => r.status === 'applied' && r.buildId === buildId && r.files.length > 0);

/** Worker: a ZIP of the files `repairs` changed, as they are in `projectDir` now, with their list. */
export async function packRepairs(
  projectDir: string,
  repairs: readonly Repair[],
  scratch: string,
  zipFile: string,
): Promise<void> {
  const staging = fs.mkdtempSync(path.join(scratch, 'repairs-'));
  try {
    const manifest: z.infer<typeof Manifest> = repairs.map((r) => ({
      id: r.id,
      code: r.code,
      summary: r.summary,
      diff: r.diff,
      at: r.at,
      files: r.files,
    }));
    fs.writeFileSync(path.join(staging, MANIFEST), JSON.stringify(manifest));
    for (const file of new Set(repairs.flatMap((r) => r.files))) {
      const rel = checkRelPath(file);
      const from = path.join(projectDir, rel);
      if (!fs.existsSync(from) || !fs.lstatSync(from).isFile()) continue; // deleted by the repair
      const to = path.join(staging, FILES, rel);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(from, to);
    }
    await zipDirToFile(staging, zipFile, { prefix: ZIP_PREFIX });
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Coordinator: apply what `packRepairs` sent to the project, in the repairs' order, each with its
 * backup and journal entry. Paths are checked against the project folder by applyPlan (nothing
 * outside is read or written). Returns the coordinator's id for each worker repair id.
 */
export async function applyRepairs(
  zipPath: string,
  deps: { layout: HomeLayout; journal: RepairJournal; logger: Logger; projectName: string; buildId: string },
): Promise<Map<string, string>> {
  const { layout, projectName } = deps;
  const staging = fs.mkdtempSync(path.join(layout.tmpDir, 'repairs-in-'));
  const ids = new Map<string, string>();
  try {
    const target = path.join(staging, 'tree');
    await extractArchive(zipPath, { targetDir: target, workDir: staging, logger: deps.logger });
    const manifest = Manifest.parse(JSON.parse(fs.readFileSync(path.join(target, MANIFEST), 'utf8')));
    const projectDir = layout.projectDir(projectName);
    for (const entry of manifest) {
      const writes = entry.files.map((file) => {
        const copy = path.join(target, FILES, checkRelPath(file));
        return { file, content: fs.existsSync(copy) ? new Uint8Array(fs.readFileSync(copy)) : null };
      });
      const backupDir = newBackupDir(layout, projectName);
      await applyPlan(
        {
          code: entry.code,
          summary: entry.summary,
          files: entry.files,
          diff: entry.diff,
          writes,
          backup: [],
        },
        projectDir,
        backupDir,
        { scratchDir: layout.tmpDir },
      );
      const { repair } = deps.journal.add({
        projectName,
        backupDir,
        repair: {
          code: entry.code,
          summary: entry.summary,
          files: entry.files,
          status: 'applied',
          diff: entry.diff,
          at: entry.at,
          buildId: deps.buildId,
        },
      });
      ids.set(entry.id, repair.id);
    }
    return ids;
  } finally {
    discardDir(staging, layout.tmpDir);
  }
}
