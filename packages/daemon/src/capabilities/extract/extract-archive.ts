import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, renameSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { removeInBackground } from '../../fs/background-removal.ts';
import type { WrittenTree } from '../../fs/tree-hash.ts';
import { ArchiveRefusedError } from './archive-refused-error.ts';
import { resolveLimits, type ExtractLimits } from './limits.ts';
import type { DroppedLink } from './plan.ts';
import type { ArchiveListing, LinkPolicy } from './thread-protocol.ts';
import { runExtractTask, type TaskOutcome, type TaskRequest } from './thread-pool.ts';
import type { WriteProgress } from './write-files.ts';

/** Staging folders inside workDir: `.extract-XXXXXX` (mkdtemp). */
export const STAGING_PREFIX = '.extract-';
/** A replaced project waiting for its background removal: `<name>.old-<ms>-<hex>`. */
const ASIDE_MARKER = /\.old-\d+-[0-9a-f]+$/;

/** Where extraction may log what it cannot fix (a pino logger fits). */
export interface ExtractLogger {
  warn(details: object, message: string): void;
}

export interface ExtractOptions {
  /** The project folder to (re)place. Its parent is created if missing. */
  targetDir: string;
  /**
   * Scratch space for staging and for the replaced copy; must be on the same file system as targetDir
   * (the swap is a rename) and must not be inside it.
   */
  workDir: string;
  limits?: Partial<ExtractLimits>;
  /** Abort terminates the thread and removes staging; targetDir is left as it was. Ignored once swapping. */
  signal?: AbortSignal;
  /** Called after each batch of files written (and once at the end). */
  onProgress?: (progress: WriteProgress) => void;
  logger?: ExtractLogger;
  /**
   * Symbolic links: `keep` (default) writes those that lead inside the project and leaves out the
   * others one by one (links.ts); `refuse` refuses the archive at the first link (ARCHIVE_SYMLINK).
   */
  links?: LinkPolicy;
  /**
   * Also hash the tree as it is written (ExtractResult.tree), so CacheBot need not read it back:
   * ~3 ms per 1,000 small files in the thread, against reading every file again on the event loop.
   */
  hash?: boolean;
}

export interface ExtractResult {
  /** Project-relative paths of the files written, forward slashes, sorted. */
  files: string[];
  fileCount: number;
  /** Bytes written (the inflated size of every file). */
  totalBytes: number;
  /** The single top-level folder that was removed from every path ("myapp"), or null. */
  strippedPrefix: string | null;
  /**
   * What never reached the disk, as archive paths: "__MACOSX/", "src/.DS_Store", ".git/", and the
   * installed "node_modules/" (install-trees.ts says which; a test fixture's is kept).
   */
  dropped: string[];
  /** Symbolic links written as links (their targets lead inside the project; see links.ts). */
  links: Array<{ path: string; target: string }>;
  /** Symbolic links left out, each with its reason; the rest of the archive is extracted. */
  droppedLinks: DroppedLink[];
  /** The written tree's digest as fs/tree-hash.ts computes it (for `hashTree`), when `hash` was asked. */
  tree: WrittenTree | null;
}

/**
 * Safely extracts an uploaded ZIP into targetDir. Every entry is validated before anything is written;
 * the files are inflated and written in a thread (kept warm between uploads, thread-pool.ts)
 * into a fresh staging folder, which then replaces targetDir with two renames. A refusal
 * (ArchiveRefusedError, 422), failure or abort leaves targetDir exactly as it was and removes the
 * staging folder; nothing is written outside workDir and targetDir.
 */
export async function extractArchive(zipPath: string, opts: ExtractOptions): Promise<ExtractResult> {
  const limits = resolveLimits(opts.limits);
  const targetDir = path.resolve(opts.targetDir);
  const workDir = path.resolve(opts.workDir);
  if (workDir === targetDir || workDir.startsWith(targetDir + path.sep)) {
    throw new Error(`extractArchive: workDir (${workDir}) must not be inside targetDir (${targetDir})`);
  }
  opts.signal?.throwIfAborted();

  // Single cheap calls, made synchronously: an async hop each would cost more than the call.
  mkdirSync(workDir, { recursive: true });
  const staging = mkdtempSync(path.join(workDir, STAGING_PREFIX));
  try {
    opts.signal?.throwIfAborted();
    const done = await runTask(
      {
        type: 'extract',
        zipPath: path.resolve(zipPath),
        stagingDir: staging,
        limits,
        hash: opts.hash === true,
        links: opts.links ?? 'keep',
      },
      opts,
      'done',
    );
    // mkdtemp made it 0700; it becomes the project folder.
    chmodSync(staging, 0o755);
    swapIn(staging, targetDir, workDir, opts.logger);
    return {
      files: done.files,
      fileCount: done.files.length,
      totalBytes: done.totalBytes,
      strippedPrefix: done.strippedPrefix,
      dropped: done.dropped,
      links: done.links,
      droppedLinks: done.droppedLinks,
      tree:
        done.treeDigest === null
          ? null
          : {
              digest: done.treeDigest,
              files: done.files,
              dirs: done.dirs,
              links: done.links.map((link) => link.path),
            },
    };
  } catch (error) {
    // Awaited (unlike the old copy's removal): once this rejects, nothing of the attempt is left.
    // After a refusal staging is empty; after a mid-way failure it is at most one archive's worth.
    await rm(staging, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  }
}

/**
 * What an archive holds, read from its listing alone in the thread (nothing is written): every check
 * extractArchive makes before writing applies, and a refusal rejects with the same
 * ArchiveRefusedError. For an upload that must wait its turn before it is extracted.
 */
export async function inspectArchive(
  zipPath: string,
  opts: { limits?: Partial<ExtractLimits>; signal?: AbortSignal; links?: LinkPolicy } = {},
): Promise<ArchiveListing> {
  const limits = resolveLimits(opts.limits);
  opts.signal?.throwIfAborted();
  const { hasPackageJson, fileCount, totalBytes } = await runTask(
    { type: 'inspect', zipPath: path.resolve(zipPath), limits, links: opts.links ?? 'keep' },
    opts,
    'inspected',
  );
  return { hasPackageJson, fileCount, totalBytes };
}

type Ending = Extract<TaskOutcome['type'], 'done' | 'inspected'>;

/** Runs a task in the pool, abortable, and turns its outcome into the result or the error it means. */
async function runTask<T extends Ending>(
  request: TaskRequest,
  opts: Pick<ExtractOptions, 'signal' | 'onProgress'>,
  ending: T,
): Promise<Extract<TaskOutcome, { type: T }>> {
  const { signal, onProgress } = opts;
  const task = runExtractTask(
    request,
    onProgress &&
      ((p) =>
        onProgress({ filesWritten: p.filesWritten, filesTotal: p.filesTotal, bytesWritten: p.bytesWritten })),
  );
  const onAbort = (): void => task.stop(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let outcome: TaskOutcome;
  try {
    outcome = await task.outcome;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  switch (outcome.type) {
    case 'refused':
      throw new ArchiveRefusedError(outcome.code, outcome.entry, outcome.message);
    case 'failed': {
      const error = new Error(`Extraction failed: ${outcome.message}`) as NodeJS.ErrnoException;
      if (outcome.errno !== null) error.code = outcome.errno;
      if (outcome.stack !== null) error.stack = `${error.message}\n(extraction thread) ${outcome.stack}`;
      throw error;
    }
    default:
      if (outcome.type !== ending)
        throw new Error(`The extraction thread answered ${outcome.type} to a ${request.type} task`);
      return outcome as Extract<TaskOutcome, { type: T }>;
  }
}

/**
 * Replaces targetDir with staging: the old folder is renamed aside into workDir, staging renamed into
 * place, and the old copy deleted in the background (mass deletes stay off the hot path, and deleting
 * many files right before creating many is what makes these disks slow).
 */
function swapIn(staging: string, targetDir: string, workDir: string, logger?: ExtractLogger): void {
  mkdirSync(path.dirname(targetDir), { recursive: true });
  const aside = path.join(
    workDir,
    `${path.basename(targetDir)}.old-${Date.now()}-${randomBytes(4).toString('hex')}`,
  );
  let movedAside = false;
  try {
    renameSync(targetDir, aside);
    movedAside = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw explainRename(error);
  }
  try {
    renameSync(staging, targetDir);
  } catch (error) {
    if (movedAside) {
      try {
        renameSync(aside, targetDir);
      } catch (restoreError) {
        logger?.warn({ err: restoreError, aside, targetDir }, 'Could not move the previous project back');
      }
    }
    throw explainRename(error);
  }
  if (movedAside) removeInBackground(aside, logger);
}

function explainRename(error: unknown): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'EXDEV') return error;
  return new Error('extractArchive: workDir and targetDir must be on the same file system', { cause: error });
}

export { removeInBackground, settleBackgroundRemovals } from '../../fs/background-removal.ts';

/**
 * Removes what a crash mid-extraction can leave in workDir (staging folders, replaced copies), in the
 * background. Call at daemon start, before any extraction runs; returns how many were scheduled.
 */
export async function sweepExtractLeftovers(workDir: string, logger?: ExtractLogger): Promise<number> {
  let names: string[];
  try {
    names = await readdir(workDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const stale = names.filter((name) => name.startsWith(STAGING_PREFIX) || ASIDE_MARKER.test(name));
  for (const name of stale) removeInBackground(path.join(workDir, name), logger);
  return stale.length;
}
