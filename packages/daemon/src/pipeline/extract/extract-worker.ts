/**
 * Worker entry of the extraction: reads, validates, inflates and writes off the daemon's event loop.
 * Bundled as its own tsup entry (dist/extract-worker.js, next to the code that starts it); under tsx or
 * vitest it is loaded from source. See worker-url.ts.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { planExtraction } from './plan.ts';
import { Refusal } from './refusal.ts';
import type { ExtractWorkerData, ExtractWorkerMessage } from './worker-protocol.ts';
import { writePlannedFiles } from './write-files.ts';
import { readCentralDirectory } from './zip-reader.ts';

export async function runExtractWorker(data: ExtractWorkerData, post: (m: ExtractWorkerMessage) => void) {
  try {
    // Uploads are capped at 50 MB; holding the archive in memory lets the reader index it once.
    const buffer = readFileSync(data.zipPath);
    const plan = planExtraction(readCentralDirectory(buffer), data.limits);
    const { bytesWritten } = await writePlannedFiles(plan, data.stagingDir, data.limits, (progress) =>
      post({ type: 'progress', ...progress }),
    );
    post({
      type: 'done',
      files: plan.files.map((f) => f.path).sort(),
      totalBytes: bytesWritten,
      strippedPrefix: plan.strippedPrefix,
      dropped: plan.dropped,
    });
  } catch (error) {
    if (error instanceof Refusal) {
      post({ type: 'refused', code: error.code, entry: error.entry, message: error.message });
    } else {
      const err = error instanceof Error ? error : new Error(String(error));
      const errno = (err as NodeJS.ErrnoException).code;
      post({ type: 'failed', message: err.message, errno: errno ?? null, stack: err.stack ?? null });
    }
  }
}

const data = workerData as ExtractWorkerData | undefined;
if (parentPort !== null && data?.kind === 'forge-extract') {
  const port = parentPort;
  void runExtractWorker(data, (message) => port.postMessage(message));
}
