import { z } from 'zod';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex');

/** `forge verify --rebuild`: what to build again, as a verified provenance statement names it. */
export const RebuildBody = z.object({
  /** The statement's build (runDetails.metadata.invocationId). */
  buildId: z.string().min(1),
  /** The source ZIP's sha256 (resolvedDependencies): the daemon rebuilds the source it kept with this digest. */
  sourceSha256: Sha256,
  /** The artifact's sha256 (the statement's subject): what the rebuild's artifact must equal. */
  artifactSha256: Sha256,
});
export type RebuildBody = z.infer<typeof RebuildBody>;

/** One file as it is in an artifact ZIP. */
export const ArtifactFileDigest = z.object({
  bytes: z.number().int().nonnegative(),
  sha256: z.string(),
});

/** A file of the artifact that the rebuild made otherwise (null on the side that has no such file). */
export const RebuildFileDiff = z.object({
  path: z.string(),
  artifact: ArtifactFileDigest.nullable(),
  rebuild: ArtifactFileDigest.nullable(),
});
export type RebuildFileDiff = z.infer<typeof RebuildFileDiff>;

export const RebuildStatus = z.enum(['running', 'identical', 'differs', 'failed']);
export type RebuildStatus = z.infer<typeof RebuildStatus>;

/** A verification rebuild: the recorded source built again with the recorded plan and toolchains. */
export const Rebuild = z.object({
  id: z.string(),
  status: RebuildStatus,
  projectName: z.string(),
  /** The recorded build whose source, plan and toolchains are used. */
  buildId: z.string(),
  sourceSha256: z.string(),
  /** The statement's subject. */
  expectedSha256: z.string(),
  /** The rebuilt artifact's sha256, once made. */
  sha256: z.string().nullable(),
  /** The tools it ran with, pinned to the recorded versions ("pnpm 9.15.0", "node 20.20.0"). */
  tools: z.array(z.string()),
  /** Files that differ (added, removed or changed), by path; empty when identical. */
  differences: z.array(RebuildFileDiff),
  /** Why it could not rebuild (REBUILD_SOURCE_NOT_KEPT, REBUILD_TOOLCHAIN_UNAVAILABLE, REBUILD_FAILED). */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** The last lines of its log. */
  log: z.array(z.string()),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type Rebuild = z.infer<typeof Rebuild>;

export const RebuildParams = z.object({ id: z.string() });
/** Answer once the rebuild has finished, or after this many seconds (at most 60). */
export const RebuildQuery = z.object({ wait: z.coerce.number().min(0).max(60).optional() });
