import fs from 'node:fs';
import path from 'node:path';
import { DsseEnvelope, InTotoStatement, type Blueprint } from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import type { Logger } from '../../logging/logger.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { discardDir } from '../../fs/moves.ts';
import { extractArchive } from '../../capabilities/extract/index.ts';
import { sha256File } from '../../capabilities/artifacts/pack.ts';
import {
  ARTIFACT_FILES,
  readArtifactRecord,
  type ArtifactRecord,
} from '../../capabilities/artifacts/record.ts';
import { loadSigningKey, signEnvelope } from '../../capabilities/artifacts/signing.ts';
import { zipDirToFile } from '../../capabilities/artifacts/zip-dir.ts';
import { keepFailedSource } from '../../capabilities/artifacts/failed-source.ts';

/**
 * A build run by a `forge worker` records its artifact, SBOM, source ZIP and provenance in the
 * worker's FORGE_HOME (its builder id names the worker). The worker sends that record to the
 * coordinator once the build has ended and before its end is reported; the coordinator checks that
 * its files are the ones the record and the statement name, adds its own signature to the envelope
 * (so the coordinator's key, GET /api/provenance/key, verifies it as it does a local build's; the
 * worker's signature stays beside it), and keeps it where a local build's record is.
 */

/** The folder every entry of the ZIP is put under (the receiving extraction strips it). */
const ZIP_PREFIX = 'artifact/';

/** Worker: a ZIP of the build's record folder, or false when the build recorded none. */
export async function packArtifactRecord(dir: string, zipFile: string): Promise<boolean> {
  if (!readArtifactRecord(dir)) return false;
  await zipDirToFile(dir, zipFile, { prefix: ZIP_PREFIX });
  return true;
}

const refuse = (why: string): never => {
  throw new ForgeError('VALIDATION_FAILED', `The worker's artifact record was refused: ${why}.`);
};

/** The record's files are the ones it names: every digest checked, and the statement's subject. */
async function check(dir: string, build: { id: string; projectName: string }): Promise<ArtifactRecord> {
  const record = readArtifactRecord(dir) ?? refuse('it holds no artifact.json');
  if (record.buildId !== build.id || record.projectName !== build.projectName)
    refuse(`it is build ${record.buildId} of ${record.projectName}, not ${build.id} of ${build.projectName}`);
  const expected = new Set<string>([...Object.values(ARTIFACT_FILES), record.name]);
  for (const name of fs.readdirSync(dir)) if (!expected.has(name)) refuse(`${name} is not part of a record`);
  const digests: Array<[string, string]> = [
    [record.name, record.sha256],
    [ARTIFACT_FILES.source, record.sourceSha256],
    [ARTIFACT_FILES.sbom, record.sbomSha256],
  ];
  for (const [name, sha256] of digests) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file) || (await sha256File(file)) !== sha256)
      refuse(`${name} is not the file it names`);
  }
  return record;
}

/**
 * Coordinator: take a worker's record of `build` (a ZIP from packArtifactRecord), check it,
 * countersign its provenance and keep it in FORGE_HOME/artifacts/<project>/<build>.
 */
export async function receiveArtifactRecord(
  zipPath: string,
  deps: { layout: HomeLayout; logger: Logger; build: { id: string; projectName: string } },
): Promise<ArtifactRecord> {
  const { layout, build } = deps;
  fs.mkdirSync(layout.tmpDir, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(layout.tmpDir, 'artifact-in-'));
  try {
    const dir = path.join(scratch, 'record');
    await extractArchive(zipPath, { targetDir: dir, workDir: scratch, logger: deps.logger });
    const record = await check(dir, build);
    const envelopeFile = path.join(dir, ARTIFACT_FILES.provenance);
    let envelope: DsseEnvelope;
    try {
      envelope = DsseEnvelope.parse(JSON.parse(fs.readFileSync(envelopeFile, 'utf8')));
    } catch {
      return refuse('its provenance is not a DSSE envelope');
    }
    const payload = Buffer.from(envelope.payload, 'base64');
    let subject: string | undefined;
    try {
      subject = InTotoStatement.parse(JSON.parse(payload.toString('utf8'))).subject[0]?.digest.sha256;
    } catch {
      subject = undefined;
    }
    if (subject !== record.sha256) refuse("its statement's subject is not the artifact");
    const key = loadSigningKey(layout.home);
    const countersigned: DsseEnvelope = {
      ...envelope,
      signatures: [
        ...envelope.signatures.filter((s) => s.keyid !== key.keyid),
        ...signEnvelope(key, envelope.payloadType, payload).signatures,
      ],
    };
    fs.writeFileSync(envelopeFile, `${JSON.stringify(countersigned)}\n`);
    const kept: ArtifactRecord = { ...record, keyid: key.keyid };
    fs.writeFileSync(path.join(dir, ARTIFACT_FILES.record), `${JSON.stringify(kept, null, 2)}\n`);
    const target = path.join(layout.artifactsDir(build.projectName), build.id);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    discardDir(target, layout.tmpDir);
    fs.renameSync(dir, target);
    return kept;
  } finally {
    discardDir(scratch, layout.tmpDir);
  }
}

/**
 * Coordinator: keep the source of a worker's failed build, for "why is it red now?" (features/why-red).
 * The worker keeps its own copy in its FORGE_HOME, out of the coordinator's reach; the coordinator
 * still has the tree the worker built: the project's files here are the ones it served the worker
 * (GET …/source), with the files the worker's repairs changed applied on their way back, which the
 * worker sends before it reports the end. Kept the same way as a local failed build's source.
 */
export function keepWorkerFailedSource(
  layout: HomeLayout,
  build: { id: string; projectName: string },
  blueprint: Blueprint | null,
): Promise<boolean> {
  return keepFailedSource(layout, build.projectName, build.id, blueprint);
}
