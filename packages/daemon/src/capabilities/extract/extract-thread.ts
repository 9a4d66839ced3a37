/**
 * Thread entry of the extraction: reads, validates, inflates and writes off the daemon's event loop.
 * The thread stays up between tasks (thread-pool.ts keeps one warm: starting a thread and loading this
 * code costs more than extracting a small project), running one task at a time as it arrives.
 * Bundled as its own tsup entry (dist/extract-thread.js, next to the code that starts it); under tsx
 * or vitest it is loaded from source. See thread-url.ts.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { TreeHasher } from '../../fs/tree-hash.ts';
import { planExtraction, type ExtractionPlan } from './plan.ts';
import { Refusal } from './refusal.ts';
import type { ExtractTask, ExtractThreadData, ExtractThreadMessage } from './thread-protocol.ts';
import { writePlannedFiles } from './write-files.ts';
import { readCentralDirectory } from './zip-reader.ts';

/** Reads and checks the whole listing; nothing is written. */
function planArchive(
  zipPath: string,
  limits: ExtractTask['limits'],
  links: ExtractTask['links'],
): ExtractionPlan {
  // Uploads are capped at 50 MB; holding the archive in memory lets the reader index it once.
  const buffer = readFileSync(zipPath);
  return planExtraction(readCentralDirectory(buffer, limits.maxEntries), limits, links);
}

type Post = (message: ExtractThreadMessage) => void;

export async function runExtractTask(task: ExtractTask, post: Post): Promise<void> {
  const { id } = task;
  try {
    const plan = planArchive(task.zipPath, task.limits, task.links);
    if (task.type === 'inspect') {
      post({
        id,
        type: 'inspected',
        hasPackageJson: plan.files.some((f) => f.path === 'package.json'),
        fileCount: plan.files.length,
        totalBytes: plan.totalBytes,
      });
      return;
    }
    const hasher = task.hash ? new TreeHasher() : null;
    const { bytesWritten } = await writePlannedFiles(
      plan,
      task.stagingDir,
      task.limits,
      (progress) => post({ id, type: 'progress', ...progress }),
      hasher,
    );
    post({
      id,
      type: 'done',
      files: plan.files.map((f) => f.path).sort(),
      dirs: plan.order.filter((node) => node.isDir).map((node) => node.path),
      totalBytes: bytesWritten,
      strippedPrefix: plan.strippedPrefix,
      dropped: plan.dropped,
      links: plan.links.map((link) => ({ path: link.path, target: link.target })),
      droppedLinks: plan.droppedLinks,
      treeDigest: hasher?.digest() ?? null,
    });
  } catch (error) {
    if (error instanceof Refusal) {
      post({ id, type: 'refused', code: error.code, entry: error.entry, message: error.message });
    } else {
      const err = error instanceof Error ? error : new Error(String(error));
      const errno = (err as NodeJS.ErrnoException).code;
      post({ id, type: 'failed', message: err.message, errno: errno ?? null, stack: err.stack ?? null });
    }
  }
}

const data = workerData as ExtractThreadData | undefined;
if (parentPort !== null && data?.kind === 'forge-extract') {
  const port = parentPort;
  // One task at a time, in arrival order: the pool sends a task only to an idle thread, and the chain
  // keeps the guarantee should that ever change.
  let queue = Promise.resolve();
  port.on('message', (task: ExtractTask) => {
    queue = queue.then(() => runExtractTask(task, (message) => port.postMessage(message)));
  });
}
