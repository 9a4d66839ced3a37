import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Response, Router } from 'express';
import { DsseEnvelope, routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import { ForgeError } from '../../http/forge-error.ts';
import type { HomeLayout } from '../../home-layout.ts';
import type { BuildService } from '../builds/service.ts';
import {
  ARTIFACT_FILES,
  readArtifactRecord,
  type ArtifactRecord,
} from '../../capabilities/artifacts/record.ts';
import { loadSigningKey, publicKeyOf } from '../../capabilities/artifacts/signing.ts';

export interface ArtifactDeps {
  builds: Pick<BuildService, 'get'>;
  layout: HomeLayout;
}

/**
 * A build's recorded artifact, SBOM, provenance and source ZIP (docs/artifacts.md), and the
 * installation's public key that checks the provenance.
 */
export function registerArtifactRoutes(router: Router, deps: ArtifactDeps): void {
  /** The folder and record of a build's artifact; 404 NO_BUILD_ARTIFACT when it has none. */
  const recorded = (id: string): { dir: string; record: ArtifactRecord } => {
    const build = deps.builds.get(id);
    const dir = path.join(deps.layout.artifactsDir(build.projectName), build.id);
    const record = readArtifactRecord(dir);
    if (!record) {
      throw new ForgeError(
        'NO_BUILD_ARTIFACT',
        build.status === 'succeeded'
          ? `Build ${build.id} of ${build.projectName} has no recorded artifact: it was pruned (each project keeps its last successful builds: the keepArtifacts setting) or made before Forge kept artifacts. Build again to record one.`
          : `Build ${build.id} of ${build.projectName} ${build.status === 'running' || build.status === 'queued' ? 'has not finished' : 'did not succeed'}: only a successful build has an artifact, SBOM and provenance.`,
      );
    }
    return { dir, record };
  };

  const send = async (res: Response, file: string, type: string, name: string) => {
    const size = fs.statSync(file).size;
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
    res.setHeader('Content-Length', String(size));
    res.setHeader('Cache-Control', 'no-store');
    await pipeline(fs.createReadStream(file), res);
  };

  router.get(routes.buildArtifact.path, async (req, res) => {
    const { dir, record } = recorded(req.params.id as string);
    await send(res, path.join(dir, record.name), 'application/zip', record.name);
  });

  router.get(routes.buildSbom.path, async (req, res) => {
    const { dir, record } = recorded(req.params.id as string);
    await send(
      res,
      path.join(dir, ARTIFACT_FILES.sbom),
      'application/vnd.cyclonedx+json',
      `${record.name.replace(/\.zip$/, '')}.cdx.json`,
    );
  });

  router.get(routes.buildSource.path, async (req, res) => {
    const { dir, record } = recorded(req.params.id as string);
    await send(
      res,
      path.join(dir, ARTIFACT_FILES.source),
      'application/zip',
      `${record.projectName}-source.zip`,
    );
  });

  defineRoute(router, routes.buildProvenance, ({ params }) => {
    const { dir } = recorded(params.id);
    return DsseEnvelope.parse(JSON.parse(fs.readFileSync(path.join(dir, ARTIFACT_FILES.provenance), 'utf8')));
  });

  defineRoute(router, routes.provenanceKey, () => publicKeyOf(loadSigningKey(deps.layout.home)));
}
