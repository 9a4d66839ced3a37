import type { ArchiveErrorCode } from './refusal.ts';
import type { ExtractLimits } from './limits.ts';
import type { WriteProgress } from './write-files.ts';

/** What the extraction worker is started with (structured-clone safe). */
export interface ExtractWorkerData {
  kind: 'forge-extract';
  zipPath: string;
  stagingDir: string;
  limits: ExtractLimits;
}

/** What the worker writes back, in order: progress*, then exactly one of done / refused / failed. */
export type ExtractWorkerMessage =
  | ({ type: 'progress' } & WriteProgress)
  | {
      type: 'done';
      /** Project-relative, forward slashes, sorted. */
      files: string[];
      totalBytes: number;
      strippedPrefix: string | null;
      dropped: string[];
    }
  | { type: 'refused'; code: ArchiveErrorCode; entry: string | null; message: string }
  | { type: 'failed'; message: string; errno: string | null; stack: string | null };
