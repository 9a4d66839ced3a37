import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ARTIFACT_SBOM_ENTRY, projectZipName, type Blueprint } from '@forge/shared';
import { buildSbom, type ToolVersion } from './sbom.ts';
import { zipDirToFile } from './zip-dir.ts';

/** Left out of every Forge ZIP of a project: installs and version control. */
export const skipInstalls = (rel: string): boolean =>
  rel === 'node_modules' || rel.startsWith('node_modules/') || rel === '.git' || rel.startsWith('.git/');

export const sha256File = async (file: string): Promise<string> => {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

export interface PackInput {
  projectName: string;
  /** What the app ZIP holds: the stored output, or the project itself for a static site or a server app. */
  outputDir: string;
  /** The built project (its installed tree is what the SBOM lists). */
  projectDir: string;
  blueprint: Blueprint;
  tools: ToolVersion[];
  /** Forge's source hash: the SBOM's serial number derives from it. */
  sourceHash: string;
  /** The date of every ZIP entry, in seconds. */
  epoch: number;
  /** The folder the ZIP is written into. */
  dir: string;
}

export interface PackedArtifact {
  name: string;
  file: string;
  sha256: string;
  bytes: number;
  files: number;
  sbomData: Buffer;
  components: number;
  lockfile: string | null;
}

/**
 * The app ZIP of a build with its SBOM inside: what a build records and what `verify --rebuild`
 * makes again to compare, so both go through this one function.
 */
export async function packArtifact(input: PackInput): Promise<PackedArtifact> {
  const bp = input.blueprint;
  const sbom = buildSbom({
    projectName: input.projectName,
    appDir: path.join(input.projectDir, bp.appDir),
    installDir: path.join(input.projectDir, bp.installDir),
    tools: input.tools,
    sourceDigest: input.sourceHash,
    stack: bp.stack,
    venv: bp.env.VIRTUAL_ENV ?? null,
  });
  const sbomData = Buffer.from(sbom.json);
  const name = projectZipName(input.projectName);
  const file = path.join(input.dir, name);
  const zipped = await zipDirToFile(input.outputDir, file, {
    reproducible: { epochMs: input.epoch * 1000 },
    exclude: (rel) => skipInstalls(rel) || rel === ARTIFACT_SBOM_ENTRY,
    extra: [{ name: ARTIFACT_SBOM_ENTRY, data: sbomData }],
  });
  return {
    name,
    file,
    sha256: await sha256File(file),
    bytes: zipped.bytes,
    files: zipped.files,
    sbomData,
    components: sbom.components,
    lockfile: sbom.lockfile,
  };
}
