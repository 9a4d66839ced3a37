import type { Blueprint, RepairCode } from '@forge/shared';
import type { RunResult } from '../exec/index.ts';

/** How the install after a repair runs: without the frozen lockfile, or also in legacy peer mode. */
export type InstallMode = 'unfrozen' | 'legacy-peer';

/** One file a repair writes. */
export interface FileWrite {
  /** Project-root-relative, forward slashes. */
  file: string;
  /** The new content (bytes: a file a worker's repair changed, such as bun.lockb); null deletes the file. */
  content: string | Uint8Array | null;
}

/** A repair fully worked out: what it writes, what it saves first, and how the next install runs. */
export interface RepairPlan {
  code: RepairCode;
  /** The live line, past tense as if done: "RepairBot added canvas-confetti@^1.9.3 to package.json". */
  summary: string;
  /** Project-relative files the repair changes (including a lockfile an install will rewrite). */
  files: string[];
  /** Unified diff of the text changes (empty for install-mode repairs). */
  diff: string;
  writes: FileWrite[];
  /**
   * Files to save before the repair although it does not write them itself (the lockfile the
   * reinstall rewrites). One that does not exist yet is recorded as absent, so undo removes the one
   * the install creates. node_modules is never saved.
   */
  backup: string[];
  /** How the next install must run. */
  install?: InstallMode;
  /** Remove the project's node_modules before the next install (DROP_FOREIGN_NODE_MODULES). */
  dropNodeModules?: boolean;
  /** The project-relative node_modules folders `dropNodeModules` removes (default: ["node_modules"]). */
  nodeModules?: string[];
}

/** A command RepairBot runs (the caller runs it like a step's command: sandboxed, cancellable). */
export interface RepairCommand {
  argv: string[];
  /** Absolute. */
  cwd: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
}

/** The project a repair is planned for. */
export interface RepairTarget {
  /** Absolute project root. */
  projectDir: string;
  /** The build's plan: package manager, appDir, installDir, env (PATH with a provisioned tool), install argv, framework. */
  blueprint: Blueprint;
  /** How the install runs now, when an earlier repair of the same build changed it. */
  installMode?: InstallMode;
  /** Runs a command as RepairBot (sandboxed when possible, cancellable): used to resolve versions. */
  run(command: RepairCommand): Promise<RunResult>;
  signal?: AbortSignal;
}

/** What planRepair answers: the plan, or why there is none that is safe. */
export type PlanResult = { plan: RepairPlan } | { plan: null; reason: string };
