import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Response, Router } from 'express';
import { projectZipName, routes, type Project } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import { ForgeError } from '../../http/forge-error.ts';
import type { Logger } from '../../logging/logger.ts';
import { detectBlueprint } from '../../capabilities/detect/index.ts';
import { readArtifactRecord, skipInstalls, sourceDateEpoch } from '../../capabilities/artifacts/record.ts';
import { streamZipOfDir } from '../../capabilities/artifacts/zip-dir.ts';
import type { PreviewRegistry } from '../../capabilities/preview/preview-registry.ts';
import { artifactDir, artifactDirOf, currentProject, requireProject, type ProjectStore } from './projects.ts';

export interface ProjectDeps extends ProjectStore {
  previews: PreviewRegistry;
  logger: Logger;
}

async function sendZip(res: Response, dir: string, name: string, deps: ProjectDeps): Promise<void> {
  res.setHeader('Content-Type', 'application/zip');
  res.setHeader('Content-Disposition', `attachment; filename="${projectZipName(name)}"`);
  res.setHeader('Cache-Control', 'no-store');
  try {
    // Reproducible: the same files give the same bytes (docs/artifacts.md).
    await streamZipOfDir(dir, res, {
      exclude: (rel) => skipInstalls(rel),
      reproducible: { epochMs: sourceDateEpoch() * 1000 },
    });
  } catch (err) {
    deps.logger.warn({ err, dir }, 'zip download ended early');
    if (!res.headersSent) throw err;
    res.destroy();
  }
}

export function registerProjectRoutes(router: Router, deps: ProjectDeps): void {
  const { repo } = deps;

  defineRoute(router, routes.projects, (): Project[] =>
    repo.projects().map(({ name, createdAt, updatedAt, lastBuild, outputKind }) => ({
      name,
      createdAt,
      updatedAt,
      lastBuild,
      hasArtifact: artifactDirOf(deps.layout, name, outputKind) !== null,
    })),
  );

  defineRoute(router, routes.currentProject, () => ({ name: currentProject(repo) }));
  defineRoute(router, routes.useProject, ({ body }) => {
    requireProject(deps, body.name);
    repo.chooseProject(body.name);
    return { name: body.name };
  });

  defineRoute(router, routes.projectBlueprint, async ({ params }) => {
    requireProject(deps, params.name);
    return detectBlueprint(deps.layout.projectDir(params.name));
  });

  router.get(routes.downloadProject.path, async (req, res) => {
    const name = req.params.name as string;
    requireProject(deps, name);
    await sendZip(res, deps.layout.projectDir(name), name, deps);
  });

  router.get(routes.downloadArtifact.path, async (req, res) => {
    const name = req.params.name as string;
    requireProject(deps, name);
    const dir = artifactDir(deps, name);
    if (!dir) throw new ForgeError('NO_ARTIFACT', `Project "${name}" has no successful build output yet.`);
    // The recorded artifact when the build kept one: the very bytes its provenance names.
    const buildId = repo.project(name)?.output?.buildId;
    const recorded = buildId ? path.join(deps.layout.artifactsDir(name), buildId) : null;
    const record = recorded ? readArtifactRecord(recorded) : null;
    if (recorded && record) {
      res.setHeader('Content-Type', 'application/zip');
      res.setHeader('Content-Disposition', `attachment; filename="${projectZipName(name)}"`);
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Content-Length', String(record.bytes));
      res.setHeader('X-Forge-Build', record.buildId);
      await pipeline(fs.createReadStream(path.join(recorded, record.name)), res);
      return;
    }
    await sendZip(res, dir, name, deps);
  });

  defineRoute(router, routes.previewUrl, async ({ query }) => {
    const name = query.project ?? currentProject(repo);
    if (!name) return { url: null };
    if (query.project) requireProject(deps, name);
    const live = deps.previews.get(name);
    if (live) return { url: live.url };
    // After a restart, a static output is served again on request; server apps are not restarted
    // behind the user's back (they run project code): building again starts them.
    const output = repo.project(name)?.output;
    const build = output ? repo.get(output.buildId) : null;
    const kind = build?.blueprint?.kind;
    if (kind === 'static' || kind === 'static-build') {
      const dir = artifactDir(deps, name);
      // The plan stored with the build says how the site answers (its fallback, its rules).
      if (dir)
        return { url: (await deps.previews.serveStatic(name, dir, { site: build?.blueprint?.site })).url };
    }
    return { url: null };
  });
}
