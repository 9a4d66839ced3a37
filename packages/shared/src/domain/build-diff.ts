import { z } from 'zod';

/**
 * "Why is it red now?": a failed build compared with the last successful build of the same project
 * (GET /api/builds/:id/diff, `forge diff`, FixIt's panel, the brain). docs/artifacts.md.
 */

/** Changed files listed one by one; the rest are counted (BuildDiff.files.more). */
export const MAX_DIFF_FILES = 200;
/** Changed files shown with their unified diff; the others are listed without one. */
export const MAX_DIFF_PATCHES = 20;
/** Lines of one file's unified diff; the rest are counted (FileChange.linesMore). */
export const MAX_DIFF_LINES = 200;
/** Dependency changes listed per kind; the rest are counted. */
export const MAX_DIFF_DEPENDENCIES = 200;

export const FileChange = z.object({
  /** Project-relative path, `/`-separated. */
  path: z.string(),
  status: z.enum(['added', 'removed', 'modified']),
  /** Binary, too large, or a lockfile (its changes are under `dependencies`): listed without a diff. */
  noDiff: z.enum(['binary', 'large', 'lockfile', 'limit']).optional(),
  /** Unified diff (git-style a/ b/ names), at most MAX_DIFF_LINES lines; absent with `noDiff`. */
  diff: z.string().optional(),
  /** Lines of the diff left out past MAX_DIFF_LINES. */
  linesMore: z.number().int().nonnegative().default(0),
});
export type FileChange = z.infer<typeof FileChange>;

export const DependencyVersion = z.object({ name: z.string(), version: z.string() });
export type DependencyVersion = z.infer<typeof DependencyVersion>;

export const DependencyChange = z.object({
  name: z.string(),
  /** The version(s) the green build's lockfile holds, comma-separated when several. */
  from: z.string(),
  to: z.string(),
  /** Whether `to` is newer (semver) than `from`; false for a downgrade or an incomparable change. */
  upgrade: z.boolean(),
});
export type DependencyChange = z.infer<typeof DependencyChange>;

export const ValueChange = z.object({
  /** The tool ("node", "pnpm") or the plan's field ("framework", "build", "outputDir"). */
  name: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type ValueChange = z.infer<typeof ValueChange>;

/** One change the failure points at: its file is the error's, its package the failing one… */
export const DiffPointer = z.object({
  kind: z.enum(['file', 'dependency', 'toolchain', 'plan', 'env']),
  /** The file path, package name, tool, plan field or variable name. */
  name: z.string(),
  /** One sentence: what the error says and what changed there. */
  reason: z.string(),
});
export type DiffPointer = z.infer<typeof DiffPointer>;

export const BuildDiff = z.object({
  /** The failed build. */
  buildId: z.string(),
  projectName: z.string(),
  /** The last successful build of the project before it: what it is compared with. */
  greenBuildId: z.string(),
  greenEndedAt: z.string().nullable(),
  /** The failure as the build recorded it: the first error line (or message) and where it points. */
  failure: z.object({
    code: z.string(),
    message: z.string(),
    /** ScanBot's diagnosis code, when it made one. */
    diagnosis: z.string().nullable(),
    file: z.string().nullable(),
    line: z.number().int().positive().nullable(),
  }),
  /** The changes the failure points at, strongest first (empty when it points at none). */
  pointsAt: z.array(DiffPointer),
  /** One line that says it, shown first everywhere ("The error is in src/main.js, changed since b3-…"). */
  summary: z.string(),
  files: z.object({
    changes: z.array(FileChange),
    added: z.number().int().nonnegative(),
    removed: z.number().int().nonnegative(),
    modified: z.number().int().nonnegative(),
    /** Changed files not listed (past MAX_DIFF_FILES). */
    more: z.number().int().nonnegative(),
  }),
  dependencies: z.object({
    /** The lockfile each side was read from (null: none). */
    lockfile: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
    added: z.array(DependencyVersion),
    removed: z.array(DependencyVersion),
    changed: z.array(DependencyChange),
    /** Entries not listed (past MAX_DIFF_DEPENDENCIES per kind). */
    more: z.number().int().nonnegative(),
  }),
  /** Node and the package manager (name and version) that built each. */
  toolchain: z.array(ValueChange),
  /** The plan's kind, framework, package manager, folders and commands. */
  plan: z.array(ValueChange),
  /** Names of the environment variables the plan sets (never their values). */
  env: z.object({ added: z.array(z.string()), removed: z.array(z.string()) }),
});
export type BuildDiff = z.infer<typeof BuildDiff>;
