import type { Blueprint } from '@forge/shared';
import { FORGE_BUILD_TYPE, IN_TOTO_STATEMENT_TYPE, SLSA_PROVENANCE_TYPE } from '@forge/shared';
import type { ToolVersion } from './sbom.ts';

export interface ProvenanceInput {
  projectName: string;
  buildId: string;
  /** The artifact ZIP's name and sha256 (hex): the statement's subject. */
  artifact: { name: string; sha256: string };
  /** Forge's source digest (tree and plan, engine/source-hash.ts). */
  sourceHash: string;
  /** sha256 of the reproducible source ZIP stored with the build (what --rebuild builds again). */
  sourceZipSha256: string;
  blueprint: Blueprint;
  tools: ToolVersion[];
  /** Names of the environment variables the plan set for its commands (never their values). */
  envNames: string[];
  forgeVersion: string;
  workerName: string;
  startedOn: string;
  finishedOn: string;
  noCache: boolean;
  /** The SBOM's sha256, recorded as a byproduct. */
  sbomSha256: string;
  /** The artifact dates its entries with this (seconds since 1970). */
  sourceDateEpoch: number;
}

/**
 * The in-toto statement of a build with its SLSA v1 provenance predicate: the source by digest,
 * the plan and every decision with its evidence, the commands, the tools, the environment's names,
 * the builder and the times. The subject is the artifact ZIP; a verifier recomputes its sha256.
 */
export function provenanceStatement(input: ProvenanceInput): Record<string, unknown> {
  const bp = input.blueprint;
  const toolUri = (t: ToolVersion) =>
    t.name === 'forge' ? `pkg:generic/forge@${t.version}` : `pkg:npm/${t.name}@${t.version}`;
  return {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [{ name: input.artifact.name, digest: { sha256: input.artifact.sha256 } }],
    predicateType: SLSA_PROVENANCE_TYPE,
    predicate: {
      buildDefinition: {
        buildType: FORGE_BUILD_TYPE,
        externalParameters: {
          project: input.projectName,
          source: { name: 'source.zip', digest: { sha256: input.sourceZipSha256 } },
          noCache: input.noCache,
        },
        internalParameters: {
          plan: {
            kind: bp.kind,
            framework: bp.framework,
            packageManager: bp.packageManager,
            appDir: bp.appDir,
            installDir: bp.installDir,
            outputDir: bp.outputDir,
            decisions: bp.decisions,
          },
          commands: {
            install: bp.install,
            build: bp.build,
            test: bp.test,
            start: bp.start,
          },
          environmentNames: [...input.envNames].sort(),
          sourceDateEpoch: input.sourceDateEpoch,
        },
        resolvedDependencies: [
          {
            uri: `forge-source:${input.projectName}`,
            name: 'source',
            digest: { sha256: input.sourceZipSha256, forgeSourceHash: input.sourceHash },
          },
          ...input.tools.map((t) => ({ uri: toolUri(t), name: t.name })),
        ],
      },
      runDetails: {
        builder: {
          id: `https://forge.local/builders/${encodeURIComponent(input.workerName)}`,
          version: { forge: input.forgeVersion },
        },
        metadata: {
          invocationId: input.buildId,
          startedOn: input.startedOn,
          finishedOn: input.finishedOn,
        },
        byproducts: [
          {
            name: 'sbom.cdx.json',
            mediaType: 'application/vnd.cyclonedx+json',
            digest: { sha256: input.sbomSha256 },
          },
        ],
      },
    },
  };
}
