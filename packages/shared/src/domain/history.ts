import { z } from 'zod';
import { TestsVerdict } from './tests-verdict.ts';

/** One kept build of a project: a successful build whose artifact is still recorded (docs/artifacts.md). */
export const HistoryEntry = z.object({
  buildId: z.string(),
  /** When the build started and ended (ISO-8601). */
  createdAt: z.string(),
  endedAt: z.string().nullable(),
  /** Forge's hash of the source tree it was built from (what the build cache keys on). */
  sourceHash: z.string().nullable(),
  /** sha256 of the reproducible source ZIP it was built from. */
  sourceSha256: z.string(),
  /** The artifact ZIP's sha256: the subject of its provenance, the bytes "Download App" gives. */
  artifactSha256: z.string(),
  /** The artifact ZIP's size in bytes, and how many files it holds. */
  bytes: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  /** What its tests said (passed, failed, none, skipped); null when not recorded. */
  verdict: TestsVerdict.nullable(),
  /** This build is the project's current preview and download. */
  current: z.boolean(),
  /** This build is the project's newest build whose tests did not fail: pruning never removes it. */
  lastGreen: z.boolean(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** GET /api/projects/:name/history: the kept builds, newest first. */
export const ProjectHistory = z.object({
  projectName: z.string(),
  /** The build serving the preview and the download, or null when the project has none. */
  currentBuildId: z.string().nullable(),
  /** How many successful builds the project keeps (the keepArtifacts setting). */
  keep: z.number().int().min(1),
  builds: z.array(HistoryEntry),
});
export type ProjectHistory = z.infer<typeof ProjectHistory>;

/** POST /api/projects/:name/rollback: which kept build; without one, the previous green build. */
export const RollbackBody = z.strictObject({ build: z.string().min(1).optional() });
export type RollbackBody = z.infer<typeof RollbackBody>;

/** What a rollback did. */
export const RollbackResult = z.object({
  projectName: z.string(),
  /** The build now current. */
  buildId: z.string(),
  /** The build that was current before, if any. */
  previousBuildId: z.string().nullable(),
  /** The artifact "Download App" now gives. */
  artifactSha256: z.string(),
  /** The preview serving the build's output, when it could be started. */
  previewUrl: z.string().nullable(),
  /** How long the switch took, in milliseconds. */
  durationMs: z.number().nonnegative(),
});
export type RollbackResult = z.infer<typeof RollbackResult>;
