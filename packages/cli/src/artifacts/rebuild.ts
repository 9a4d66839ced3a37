import type { InTotoStatement, Rebuild, RebuildBody, RebuildFileDiff } from '@forge/shared';

/** How long one wait for the daemon's rebuild lasts before asking again (the route caps it at 60 s). */
const WAIT_SECONDS = 30;

/** What a verified statement names for a rebuild: its build, its source's digest and its subject. */
export function rebuildRequestOf(statement: InTotoStatement): RebuildBody | null {
  const predicate = statement.predicate as {
    buildDefinition?: { resolvedDependencies?: { name?: string; digest?: Record<string, string> }[] };
    runDetails?: { metadata?: { invocationId?: string } };
  };
  const source = predicate.buildDefinition?.resolvedDependencies?.find((d) => d.name === 'source');
  const buildId = predicate.runDetails?.metadata?.invocationId;
  const sourceSha256 = source?.digest?.sha256;
  const artifactSha256 = statement.subject[0]?.digest.sha256;
  if (!buildId || !sourceSha256 || !artifactSha256) return null;
  return { buildId, sourceSha256, artifactSha256 };
}

/** Ask for the rebuild's state until it has finished (each ask waits on the daemon, no polling loop of sleeps). */
export async function waitForRebuild(get: (wait: number) => Promise<Rebuild>): Promise<Rebuild> {
  for (;;) {
    const state = await get(WAIT_SECONDS);
    if (state.status !== 'running') return state;
  }
}

const side = (d: RebuildFileDiff['artifact']) => (d ? `${d.bytes} B sha256 ${d.sha256}` : 'absent');

/** A differing file as printed: its path, then both sides' size and sha256. */
export function formatDifference(d: RebuildFileDiff): string[] {
  return [`  ${d.path}`, `    artifact: ${side(d.artifact)}`, `    rebuild:  ${side(d.rebuild)}`];
}
