import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { ArchiveRefusedError } from './archive-refused-error.ts';
import { resolveLimits, type ExtractLimits } from './limits.ts';
import type { ExtractWorkerMessage } from './worker-protocol.ts';
import { startExtractWorker } from './worker-url.ts';
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
  /** Abort terminates the worker and removes staging; targetDir is left as it was. Ignored once swapping. */
  signal?: AbortSignal;
  /** Called after each batch of files written (and once at the end). */
  onProgress?: (progress: WriteProgress) => void;
  logger?: ExtractLogger;
}

export interface ExtractResult {
  /** Project-relative paths of the files written, forward slashes, sorted. */
  files: string[];
  fileCount: number;
  /** Bytes written (the inflated size of every file). */
  totalBytes: number;
  /** The single top-level folder that was removed from every path ("myapp"), or null. */
  strippedPrefix: string | null;
  /** What never reached the disk, as archive paths: "__MACOSX/", "src/.DS_Store", "node_modules/". */
  dropped: string[];
}

type WorkerOutcome = Extract<ExtractWorkerMessage, { type: 'done' }>;

/**
 * Safely extracts an uploaded ZIP into targetDir. Every entry is validated before anything is written;
 * the files are inflated and written in a worker thread into a fresh staging folder, which then replaces
 * targetDir with two renames. A refusal (ArchiveRefusedError, 422), failure or abort leaves targetDir
 * exactly as it was and removes the staging folder; nothing is written outside workDir and targetDir.
 */
export async function extractArchive(zipPath: string, opts: ExtractOptions): Promise<ExtractResult> {
  const limits = resolveLimits(opts.limits);
  const targetDir = path.resolve(opts.targetDir);
  const workDir = path.resolve(opts.workDir);
  if (workDir === targetDir || workDir.startsWith(targetDir + path.sep)) {
    throw new Error(`extractArchive: workDir (${workDir}) must not be inside targetDir (${targetDir})`);
  }
  opts.signal?.throwIfAborted();

  await mkdir(workDir, { recursive: true });
  const staging = await mkdtemp(path.join(workDir, STAGING_PREFIX));
  try {
    opts.signal?.throwIfAborted();
    const outcome = await runWorker(path.resolve(zipPath), staging, limits, opts);
    // mkdtemp made it 0700; it becomes the project folder.
    await chmod(staging, 0o755);
    await swapIn(staging, targetDir, workDir, opts.logger);
    return {
      files: outcome.files,
      fileCount: outcome.files.length,
      totalBytes: outcome.totalBytes,
      strippedPrefix: outcome.strippedPrefix,
      dropped: outcome.dropped,
    };
  } catch (error) {
    // Awaited (unlike the old copy's removal): once this rejects, nothing of the attempt is left.
    // After a refusal staging is empty; after a mid-way failure it is at most one archive's worth.
    await rm(staging, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  }
}

function runWorker(
  zipPath: string,
  stagingDir: string,
  limits: ExtractLimits,
  opts: ExtractOptions,
): Promise<WorkerOutcome> {
  return new Promise((resolve, reject) => {
    const { signal, onProgress } = opts;
    const worker = startExtractWorker({ kind: 'forge-extract', zipPath, stagingDir, limits });
    let final: ExtractWorkerMessage | undefined;
    let crash: Error | undefined;
    /** Set when we stop the worker ourselves: the abort reason, or an error thrown by onProgress. */
    let stopped: { reason: unknown } | undefined;

    const stop = (reason: unknown): void => {
      stopped ??= { reason };
      // The promise settles on 'exit', after the thread is gone: staging is removed only once
      // nothing can write into it any more.
      void worker.terminate();
    };
    const onAbort = (): void => stop(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });

    worker.on('message', (message: ExtractWorkerMessage) => {
      if (stopped) return;
      if (message.type === 'progress') {
        const { filesWritten, filesTotal, bytesWritten } = message;
        try {
          onProgress?.({ filesWritten, filesTotal, bytesWritten });
        } catch (error) {
          stop(error);
        }
      } else {
        final ??= message;
      }
    });
    worker.on('error', (error) => {
      crash ??= error;
    });
    worker.on('exit', (exitCode) => {
      signal?.removeEventListener('abort', onAbort);
      if (stopped) return reject(stopped.reason);
      switch (final?.type) {
        case 'done':
          return resolve(final);
        case 'refused':
          return reject(new ArchiveRefusedError(final.code, final.entry, final.message));
        case 'failed': {
          const error = new Error(`Extraction failed: ${final.message}`) as NodeJS.ErrnoException;
          if (final.errno !== null) error.code = final.errno;
          if (final.stack !== null) error.stack = `${error.message}\n(worker) ${final.stack}`;
          return reject(error);
        }
        default:
          return reject(
            crash ?? new Error(`The extraction worker stopped unexpectedly (exit code ${exitCode})`),
          );
      }
    });
  });
}

/**
 * Replaces targetDir with staging: the old folder is renamed aside into workDir, staging renamed into
 * place, and the old copy deleted in the background (mass deletes stay off the hot path, and deleting
 * many files right before creating many is what makes these disks slow).
 */
async function swapIn(
  staging: string,
  targetDir: string,
  workDir: string,
  logger?: ExtractLogger,
): Promise<void> {
  await mkdir(path.dirname(targetDir), { recursive: true });
  const aside = path.join(
    workDir,
    `${path.basename(targetDir)}.old-${Date.now()}-${randomBytes(4).toString('hex')}`,
  );
  let movedAside = false;
  try {
    await rename(targetDir, aside);
    movedAside = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw explainRename(error);
  }
  try {
    await rename(staging, targetDir);
  } catch (error) {
    if (movedAside) {
      await rename(aside, targetDir).catch((restoreError: unknown) => {
        logger?.warn({ err: restoreError, aside, targetDir }, 'Could not move the previous project back');
      });
    }
    throw explainRename(error);
  }
  if (movedAside) removeInBackground(aside, logger);
}

function explainRename(error: unknown): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'EXDEV') return error;
  return new Error('extractArchive: workDir and targetDir must be on the same file system', { cause: error });
}

const pendingRemovals = new Set<Promise<void>>();

/** Deletes a folder without anyone waiting for it; a failure is logged, never thrown. */
export function removeInBackground(dir: string, logger?: ExtractLogger): void {
  const removal: Promise<void> = rm(dir, { recursive: true, force: true, maxRetries: 3 })
    .catch((error: unknown) => {
      logger?.warn(
        { err: error, dir },
        'Could not remove a replaced project copy; it will be swept at next start',
      );
    })
    .finally(() => pendingRemovals.delete(removal));
  pendingRemovals.add(removal);
}

/** Resolves once every background removal started so far has finished (graceful shutdown, tests). */
export async function settleBackgroundRemovals(): Promise<void> {
  while (pendingRemovals.size > 0) await Promise.all([...pendingRemovals]);
}

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
