import type { LinkPolicy } from './links.ts';
import type { DroppedLink } from './plan.ts';
import type { ArchiveErrorCode } from './refusal.ts';
import type { ExtractLimits } from './limits.ts';
import type { WriteProgress } from './write-files.ts';

/** What the extraction thread is started with (structured-clone safe): it then waits for tasks. */
export interface ExtractThreadData {
  kind: 'forge-extract';
}

/** One task for a thread (structured-clone safe). A thread runs one task at a time. */
export type ExtractTask =
  | {
      type: 'extract';
      id: number;
      zipPath: string;
      stagingDir: string;
      limits: ExtractLimits;
      /** Also compute the written tree's digest (fs/tree-hash.ts) as the files are written. */
      hash: boolean;
      /** What a symbolic link gets: judged and kept or left out (links.ts), or the archive refused. */
      links: LinkPolicy;
    }
  | {
      /** Read and check the listing only; nothing is written. */
      type: 'inspect';
      id: number;
      zipPath: string;
      limits: ExtractLimits;
      links: LinkPolicy;
    };

export type { LinkPolicy } from './links.ts';

/** What the archive lists, as an inspection finds it. */
export interface ArchiveListing {
  /** A package.json at the project's root (after the top folder is stripped). */
  hasPackageJson: boolean;
  fileCount: number;
  /** Declared uncompressed bytes of the kept files. */
  totalBytes: number;
}

/** The outcome of an extraction that wrote everything. */
export interface ExtractDone {
  type: 'done';
  /** Project-relative, forward slashes, sorted. */
  files: string[];
  /** Every folder written (listed or needed), project-relative, in walk order. */
  dirs: string[];
  totalBytes: number;
  strippedPrefix: string | null;
  dropped: string[];
  /** The links written, project-relative, in walk order, with their targets. */
  links: Array<{ path: string; target: string }>;
  /** The links left out, with why. */
  droppedLinks: DroppedLink[];
  /** The digest fs/tree-hash.ts gives the written tree, when the task asked for it. */
  treeDigest: string | null;
}

/** What a thread writes back for a task, in order: progress* (extract only), then exactly one end. */
export type ExtractThreadMessage = { id: number } & (
  | ({ type: 'progress' } & WriteProgress)
  | ExtractDone
  | ({ type: 'inspected' } & ArchiveListing)
  | { type: 'refused'; code: ArchiveErrorCode; entry: string | null; message: string }
  | { type: 'failed'; message: string; errno: string | null; stack: string | null }
);
