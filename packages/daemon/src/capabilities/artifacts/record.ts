import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { IN_TOTO_PAYLOAD_TYPE, type Blueprint } from '@forge/shared';
import type { ToolVersion } from './sbom.ts';
import { packArtifact, sha256File, skipInstalls } from './pack.ts';
import { provenanceStatement } from './provenance.ts';
import { signEnvelope, type SigningKey } from './signing.ts';
import { zipDirToFile } from './zip-dir.ts';

/**
 * What Forge keeps of each successful build (docs/artifacts.md), in
 * FORGE_HOME/artifacts/<project>/<build>/: the app ZIP (with its SBOM inside), the SBOM alone,
 * the signed provenance (a DSSE envelope, one JSON line) and the source ZIP it was built from.
 */
export const ARTIFACT_FILES = {
  sbom: 'sbom.cdx.json',
  provenance: 'provenance.intoto.jsonl',
  source: 'source.zip',
  record: 'artifact.json',
} as const;

/** Every entry of Forge's ZIPs is dated 1980-01-01 00:00:00 UTC unless SOURCE_DATE_EPOCH says otherwise. */
export const DEFAULT_SOURCE_DATE_EPOCH = Date.UTC(1980, 0, 1) / 1000;

/**
 * The date written into every ZIP entry: SOURCE_DATE_EPOCH from the daemon's environment (the
 * reproducible-builds convention) when it is a whole number of seconds in the range a ZIP can hold,
 * else the ZIP format's first day. Not the newest source file: extraction writes files at upload time,
 * so that date changes with every upload of the same ZIP.
 */
export function sourceDateEpoch(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SOURCE_DATE_EPOCH;
  if (raw !== undefined && /^\d+$/.test(raw)) {
    const value = Number(raw);
    if (value >= DEFAULT_SOURCE_DATE_EPOCH && value < Date.UTC(2099, 11, 31) / 1000) return value;
  }
  return DEFAULT_SOURCE_DATE_EPOCH;
}

export { skipInstalls };

export interface ArtifactRecord {
  buildId: string;
  projectName: string;
  /** The app ZIP's file name (<project>.zip). */
  name: string;
  sha256: string;
  bytes: number;
  files: number;
  sourceSha256: string;
  sbomSha256: string;
  components: number;
  lockfile: string | null;
  keyid: string;
  sourceDateEpoch: number;
}

export interface RecordInput {
  /** FORGE_HOME/artifacts/<project>/<build>. */
  dir: string;
  projectName: string;
  buildId: string;
  /** What the app ZIP holds: the stored output, or the project itself for a static site or a server app. */
  outputDir: string;
  projectDir: string;
  blueprint: Blueprint;
  sourceHash: string;
  startedOn: string;
  noCache: boolean;
  forgeVersion: string;
  workerName: string;
  key: SigningKey;
  /** Source files the build's own tree holds that are not source (its output folder). */
  skipSource?: (rel: string) => boolean;
}

const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');

/** Node, the package manager and Forge, with the versions that built it. */
export function toolsOf(bp: Blueprint, forgeVersion: string): ToolVersion[] {
  const tools: ToolVersion[] = [{ name: 'forge', version: forgeVersion }];
  tools.push({ name: 'node', version: bp.node?.resolved?.version ?? process.versions.node });
  if (bp.toolchain)
    tools.push({ name: bp.toolchain.package, version: bp.toolchain.version ?? bp.toolchain.request });
  return tools;
}

/**
 * Write a build's artifact, SBOM, source ZIP and signed provenance into `input.dir` (a fresh
 * folder, filled beside it and renamed in: a reader never sees half a record).
 */
export async function recordArtifact(input: RecordInput): Promise<ArtifactRecord> {
  const bp = input.blueprint;
  const epoch = sourceDateEpoch();
  const reproducible = { epochMs: epoch * 1000 };
  const partial = `${input.dir}.partial-${process.pid}`;
  await fs.promises.rm(partial, { recursive: true, force: true });
  await fs.promises.mkdir(partial, { recursive: true });
  try {
    const sourceZip = path.join(partial, ARTIFACT_FILES.source);
    const skipSource = input.skipSource;
    await zipDirToFile(input.projectDir, sourceZip, {
      reproducible,
      exclude: (rel) => skipInstalls(rel) || (skipSource?.(rel) ?? false),
    });
    const sourceSha256 = await sha256File(sourceZip);

    const tools = toolsOf(bp, input.forgeVersion);
    const packed = await packArtifact({
      projectName: input.projectName,
      outputDir: input.outputDir,
      projectDir: input.projectDir,
      blueprint: bp,
      tools,
      sourceHash: input.sourceHash,
      epoch,
      dir: partial,
    });
    const { name, sbomData, sha256: artifactSha256 } = packed;
    await fs.promises.writeFile(path.join(partial, ARTIFACT_FILES.sbom), sbomData);

    const statement = provenanceStatement({
      projectName: input.projectName,
      buildId: input.buildId,
      artifact: { name, sha256: artifactSha256 },
      sourceHash: input.sourceHash,
      sourceZipSha256: sourceSha256,
      blueprint: bp,
      tools,
      envNames: Object.keys(bp.env),
      forgeVersion: input.forgeVersion,
      workerName: input.workerName,
      startedOn: input.startedOn,
      finishedOn: new Date().toISOString(),
      noCache: input.noCache,
      sbomSha256: sha256(sbomData),
      sourceDateEpoch: epoch,
    });
    const envelope = signEnvelope(input.key, IN_TOTO_PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement)));
    await fs.promises.writeFile(
      path.join(partial, ARTIFACT_FILES.provenance),
      `${JSON.stringify(envelope)}\n`,
    );

    const record: ArtifactRecord = {
      buildId: input.buildId,
      projectName: input.projectName,
      name,
      sha256: artifactSha256,
      bytes: packed.bytes,
      files: packed.files,
      sourceSha256,
      sbomSha256: sha256(sbomData),
      components: packed.components,
      lockfile: packed.lockfile,
      keyid: input.key.keyid,
      sourceDateEpoch: epoch,
    };
    await fs.promises.writeFile(
      path.join(partial, ARTIFACT_FILES.record),
      `${JSON.stringify(record, null, 2)}\n`,
    );
    await fs.promises.rm(input.dir, { recursive: true, force: true });
    await fs.promises.rename(partial, input.dir);
    return record;
  } finally {
    await fs.promises.rm(partial, { recursive: true, force: true });
  }
}

/** The record of a build's artifact, or null when it has none (failed, or from before artifacts were kept). */
export function readArtifactRecord(dir: string): ArtifactRecord | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, ARTIFACT_FILES.record), 'utf8')) as ArtifactRecord;
  } catch {
    return null;
  }
}
