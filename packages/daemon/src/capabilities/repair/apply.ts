import fs from 'node:fs';
import { chmod, copyFile, mkdir, readFile, rm, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { discardDir } from '../../fs/moves.ts';
import {
  checkRelPath,
  lstatOrNull,
  projectRoot,
  resolveExisting,
  resolveLinkParent,
  resolveNew,
  type ProjectRoot,
} from '../../fs/safe-path.ts';
import { ForgeError } from '../../http/forge-error.ts';
import type { RepairPlan } from './types.ts';
import { writeFileAtomic } from '../../fs/atomic-write.ts';
import { LOCKFILES } from './install-args.ts';

/**
 * Applying a plan and taking it back. Before anything is written, every file the repair touches is
 * copied into the backup folder with a manifest of which files existed (and which folders the repair
 * created), so undo puts back the old bytes and removes what the repair (or its install) added.
 * Every path is checked against the project folder, links followed: nothing outside is read or written.
 */

/** The backup's list of files, next to the copies (kept under files/ so no project file can clash with it). */
const MANIFEST = 'manifest.json';
const COPIES = 'files';

interface BackupEntry {
  /** Project-relative path. */
  file: string;
  existed: boolean;
  /** Permission bits of the file that existed. */
  mode?: number;
}

interface BackupManifest {
  version: 1;
  files: BackupEntry[];
  /** Project-relative folders the repair created, deepest first: undo removes them when empty. */
  createdDirs: string[];
}

/** A checked file of the plan: where it really is, and whether it is there now. */
interface Resolved {
  rel: string;
  abs: string;
  exists: boolean;
}

function resolveFile(root: ProjectRoot, file: string): Resolved {
  const rel = checkRelPath(file);
  const entry = path.join(root.real, rel);
  if (lstatOrNull(entry) !== null) {
    // Links are followed and must stay inside the project (resolveExisting throws otherwise).
    const abs = resolveExisting(root, rel);
    if (!fs.statSync(abs).isFile()) {
      throw new ForgeError('NOT_A_FILE', `RepairBot only changes files, and "${rel}" is not a regular file.`);
    }
    return { rel, abs, exists: true };
  }
  // Missing: its nearest existing folder, links followed, decides where it would be created.
  const { abs } = resolveNew(root, rel);
  return { rel, abs, exists: false };
}

/** The folders between the project root and `abs` that do not exist yet, deepest first, project-relative. */
function missingDirs(root: ProjectRoot, abs: string): string[] {
  const missing: string[] = [];
  for (let dir = path.dirname(abs); dir !== root.real && !fs.existsSync(dir); dir = path.dirname(dir)) {
    missing.push(path.relative(root.real, dir).split(path.sep).join('/'));
  }
  return missing;
}

const unique = (items: readonly string[]): string[] => [...new Set(items)];

/** The install a repair serves (the plan's folders): whose node_modules and lockfile it may replace. */
export interface RepairScope {
  /** Project-relative folder the install runs in ("." for the root). */
  installDir: string;
  /** Project-relative folder of the app (a package of that install). */
  appDir: string;
}

const ROOT_SCOPE: RepairScope = { installDir: '.', appDir: '.' };
const LOCKFILE_NAMES = new Set(Object.values(LOCKFILES).flat());
const relIn = (dir: string, name: string): string => path.posix.normalize(path.posix.join(dir, name));
/** A path through a node_modules or .git folder: the install's and git's, never a repair's to write. */
const TOOL_OWNED = /(?:^|\/)(?:node_modules|\.git)(?:\/|$)/;

/**
 * What a repair may change, checked before anything is saved or written, whatever the planner said:
 * the files it declares (in `files`: the edit it is about, shown to the user and saved for undo) and
 * the install's own lockfile; it may delete nothing but that lockfile (or a declared file it renames:
 * the same bytes written under a new declared name), and remove no node_modules but
 * the install's own top-level ones (the install folder's, and the app's when it is a package of that
 * install). So a committed `test/fixtures/…/node_modules` or any other file of the upload survives
 * every repair. Throws REPAIR_OUT_OF_SCOPE naming the path.
 */
function checkScope(
  plan: RepairPlan,
  writes: readonly (Resolved & { content: unknown })[],
  scope: RepairScope,
): void {
  const refuse = (rel: string, why: string): never => {
    throw new ForgeError(
      'REPAIR_OUT_OF_SCOPE',
      `RepairBot refused its ${plan.code} repair: it would ${why} "${rel}", which a repair never touches.`,
    );
  };
  const lockfiles = new Set([...LOCKFILE_NAMES].map((name) => relIn(scope.installDir, name)));
  const declared = new Set(plan.files.map((f) => checkRelPath(f)));
  // A rename: a declared file deleted whose exact bytes the same plan writes under a new name.
  const renamed = (w: Resolved): boolean =>
    declared.has(w.rel) &&
    writes.some(
      (o) =>
        o.content !== null &&
        !o.exists &&
        declared.has(o.rel) &&
        Buffer.from(o.content as string | Uint8Array).equals(fs.readFileSync(w.abs)),
    );
  for (const w of writes) {
    if (TOOL_OWNED.test(w.rel)) refuse(w.rel, 'write');
    if (w.content === null && w.exists && !lockfiles.has(w.rel) && !renamed(w)) refuse(w.rel, 'delete');
    if (w.exists && !declared.has(w.rel) && !lockfiles.has(w.rel)) refuse(w.rel, 'silently change');
  }
  if (plan.dropNodeModules) {
    const own = new Set([relIn(scope.installDir, 'node_modules'), relIn(scope.appDir, 'node_modules')]);
    for (const dir of plan.nodeModules ?? ['node_modules']) {
      const rel = path.posix.normalize(checkRelPath(dir));
      if (!own.has(rel)) refuse(rel, 'remove');
    }
  }
}

export interface ApplyOptions {
  /** The install the repair serves (default: the project root's). */
  scope?: RepairScope;
  /**
   * Where a dropped node_modules is moved before it is removed in the background (same file system
   * as the project; FORGE_HOME's tmp folder). Default: the backup folder's parent.
   */
  scratchDir?: string;
}

/**
 * Apply a plan: check it stays within what a repair may change (checkScope), save every file in
 * plan.files, plan.backup and plan.writes into `backupDir` (with which did not exist), write
 * atomically, then drop node_modules when asked. A write that fails puts back
 * what was saved before the error is thrown. Returns the project-relative files the repair changes.
 */
export async function applyPlan(
  plan: RepairPlan,
  projectDir: string,
  backupDir: string,
  options: ApplyOptions = {},
): Promise<{ files: string[] }> {
  const root = projectRoot(projectDir);
  // Every path is checked before anything is saved or written.
  const writes = plan.writes.map((w) => ({ ...resolveFile(root, w.file), content: w.content }));
  const saved = new Map<string, Resolved>();
  for (const r of [...writes, ...unique([...plan.files, ...plan.backup]).map((f) => resolveFile(root, f))]) {
    saved.set(r.rel, r);
  }
  const drops = plan.dropNodeModules
    ? unique(plan.nodeModules ?? ['node_modules']).map((dir) => resolveLinkParent(root, checkRelPath(dir)))
    : [];
  checkScope(plan, writes, options.scope ?? ROOT_SCOPE);

  const manifestFile = path.join(backupDir, MANIFEST);
  if (fs.existsSync(manifestFile)) throw new Error(`${backupDir} already holds the backup of a repair`);
  const manifest: BackupManifest = { version: 1, files: [], createdDirs: [] };
  for (const r of saved.values()) {
    if (r.exists) {
      const copy = path.join(backupDir, COPIES, r.rel);
      await mkdir(path.dirname(copy), { recursive: true });
      await copyFile(r.abs, copy);
      manifest.files.push({ file: r.rel, existed: true, mode: fs.statSync(r.abs).mode & 0o7777 });
    } else {
      manifest.files.push({ file: r.rel, existed: false });
    }
  }
  for (const w of writes) if (w.content !== null) manifest.createdDirs.push(...missingDirs(root, w.abs));
  manifest.createdDirs = unique(manifest.createdDirs).sort((a, b) => b.length - a.length);
  await mkdir(backupDir, { recursive: true });
  // Temporaries go to the scratch folder, never beside a project file where a kill would leave them.
  const scratchDir = options.scratchDir ?? path.dirname(backupDir);
  await writeFileAtomic(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, { scratchDir });

  try {
    for (const w of writes) {
      if (w.content === null) {
        if (w.exists) await unlink(w.abs);
      } else {
        await mkdir(path.dirname(w.abs), { recursive: true });
        // A file it replaces keeps its mode (an executable script stays executable).
        const mode = w.exists ? fs.statSync(w.abs).mode & 0o7777 : undefined;
        await writeFileAtomic(w.abs, w.content, { scratchDir, mode });
      }
    }
  } catch (error) {
    await restoreBackup(backupDir, projectDir);
    throw error;
  }

  for (const entry of drops) await dropDir(entry, options.scratchDir ?? path.dirname(backupDir));
  return { files: unique([...plan.files, ...plan.writes.map((w) => checkRelPath(w.file))]) };
}

/** Remove a node_modules: renamed aside at once, deleted in the background; a link is only unlinked. */
async function dropDir(entry: string, scratch: string): Promise<void> {
  const stat = lstatOrNull(entry);
  if (!stat) return;
  if (!stat.isDirectory()) {
    await unlink(entry);
    return;
  }
  try {
    discardDir(entry, scratch);
  } catch (error) {
    // Another file system than the scratch folder's: remove it in place.
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await rm(entry, { recursive: true, force: true });
  }
}

async function readManifest(backupDir: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await readFile(path.join(backupDir, MANIFEST), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new ForgeError('REPAIR_NOT_FOUND', 'The files saved before this repair are no longer there.');
  }
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.version !== 1 || !Array.isArray(manifest.files)) {
    throw new Error(`${backupDir}/${MANIFEST} is not a repair backup Forge can read`);
  }
  return manifest;
}

/**
 * Put back what applyPlan saved in `backupDir`: files that existed get their old bytes and mode,
 * files that did not are removed, and folders the repair created are removed when empty. Returns the
 * project-relative files restored.
 */
export async function restoreBackup(backupDir: string, projectDir: string): Promise<string[]> {
  const manifest = await readManifest(backupDir);
  const root = projectRoot(projectDir);
  // Checked again: the manifest is a file on disk, and the project may have changed since.
  const entries = manifest.files.map((e) => ({ ...e, ...resolveFile(root, e.file) }));
  for (const e of entries) {
    if (e.existed) {
      const bytes = await readFile(path.join(backupDir, COPIES, e.rel));
      await mkdir(path.dirname(e.abs), { recursive: true });
      await writeFileAtomic(e.abs, bytes, { scratchDir: path.dirname(backupDir) });
      if (e.mode !== undefined) await chmod(e.abs, e.mode);
    } else if (e.exists) {
      await unlink(e.abs);
    }
  }
  for (const dir of manifest.createdDirs ?? []) {
    const rel = checkRelPath(dir);
    const entry = resolveLinkParent(root, rel);
    if (lstatOrNull(entry)?.isDirectory()) {
      await rmdir(entry).catch((error: NodeJS.ErrnoException) => {
        // Something else was put there since: it stays.
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      });
    }
  }
  return entries.map((e) => e.rel);
}
