import fs from 'node:fs';
import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import { ForgeError } from '../../http/forge-error.ts';
import type { HomeLayout } from '../../home-layout.ts';
import type { Logger } from '../../logging/logger.ts';
import { extractArchive } from '../../capabilities/extract/index.ts';
import { isInstalledNodeModules } from '../../capabilities/extract/install-trees.ts';
import { streamZipOfDir } from '../../capabilities/artifacts/zip-dir.ts';
import { receiveArtifactRecord } from './artifact-transfer.ts';
import type { PreviewRegistry } from '../../capabilities/preview/preview-registry.ts';
import { receiveZip } from '../uploads/receive-zip.ts';
import { redactQueueUrl } from '../../config/load-config.ts';
import type { BuildService } from '../builds/service.ts';
import type { RemoteQueue } from './remote-queue.ts';
import { applyRepairs } from './repair-transfer.ts';
import type { RepairJournal } from '../../capabilities/repair/journal.ts';

/** A build output sent by a worker may be this large (a source upload: 50 MB). */
const MAX_OUTPUT_BYTES = 2 * 1024 ** 3;
/** The folder the coordinator's source ZIP puts every file under. */
export const SOURCE_ZIP_PREFIX = 'project/';

/**
 * No installs or VCS data travel to a worker: it installs for itself. A committed node_modules
 * fixture is source and goes along (capabilities/extract/install-trees.ts tells them apart).
 */
const notSent =
  (dir: string) =>
  (rel: string): boolean =>
    rel === '.git' || isInstalledNodeModules(dir, rel, ['.']);

export interface QueueRouteDeps {
  builds: BuildService;
  /** RepairBot's journal: repairs a worker made are recorded here, with this daemon's backups. */
  journal: RepairJournal;
  layout: HomeLayout;
  previews: PreviewRegistry;
  logger: Logger;
  /** Prunes a project's history after a worker's artifact is kept, as a local build's is. */
  pruneHistory: (projectName: string, keptBuildId: string) => void;
}

/**
 * GET /api/workers, and the routes `forge worker` processes use (/api/worker/*): hello, start a
 * job, fetch its source, post its events, send its output, serve its preview. They pass the same
 * guards as every route (the access token when one is set); on an in-process daemon they answer
 * 409 NO_QUEUE.
 */
export function registerQueueRoutes(router: Router, deps: QueueRouteDeps): void {
  const { layout, previews, logger } = deps;
  const remote = (): RemoteQueue => {
    const r = deps.builds.remote;
    if (!r) throw new ForgeError('NO_QUEUE');
    return r;
  };

  defineRoute(router, routes.workers, () => {
    const r = deps.builds.remote;
    return r
      ? { queue: 'bullmq' as const, queueUrl: redactQueueUrl(r.url), workers: r.workers() }
      : { queue: 'in-process' as const, queueUrl: null, workers: [] };
  });

  defineRoute(router, routes.workerHello, ({ body }) => remote().hello(body));

  defineRoute(router, routes.workerJobStart, ({ params, body }) =>
    remote().start(params.id, body.worker, body.attempt),
  );

  router.get(routes.workerJobSource.path, async (req, res) => {
    const query = routes.workerJobSource.query.safeParse(req.query);
    if (!query.success) throw new ForgeError('VALIDATION_FAILED', '"worker" must name the worker asking.');
    const { dir, projectName } = remote().sourceOf(String(req.params.id), query.data.worker);
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Disposition', `attachment; filename="${projectName}.zip"`);
    res.setHeader('Cache-Control', 'no-store');
    try {
      await streamZipOfDir(dir, res, { exclude: notSent(dir), prefix: SOURCE_ZIP_PREFIX });
    } catch (err) {
      logger.warn({ err, dir }, 'sending a project to a worker ended early');
      if (!res.headersSent) throw err;
      res.destroy();
    }
  });

  defineRoute(router, routes.workerJobEvents, ({ params, body }) => remote().events(params.id, body));

  router.post(routes.workerJobUpload.path, async (req, res) => {
    const query = routes.workerJobUpload.query.safeParse(req.query);
    if (!query.success)
      throw new ForgeError('VALIDATION_FAILED', 'Say which worker sends what (?worker=&kind=).');
    const { worker, kind } = query.data;
    const run = remote().runOf(String(req.params.id), worker);
    const zip = await receiveZip(req, {
      field: routes.workerJobUpload.multipart.field,
      tmpDir: layout.tmpDir,
      maxBytes: MAX_OUTPUT_BYTES,
    });
    try {
      if (kind === 'files') {
        const ids = await applyRepairs(zip.path, {
          layout,
          journal: deps.journal,
          logger,
          projectName: run.projectName,
          buildId: run.id,
        });
        remote().repairsReceived(run.id, worker, ids);
        res.setHeader('Cache-Control', 'no-store');
        res.json(routes.workerJobUpload.response.parse({ files: ids.size }));
        return;
      }
      if (kind === 'artifact') {
        const record = await receiveArtifactRecord(zip.path, { layout, logger, build: run });
        deps.pruneHistory(run.projectName, run.id);
        res.setHeader('Cache-Control', 'no-store');
        res.json(routes.workerJobUpload.response.parse({ files: record.files }));
        return;
      }
      const result = await extractArchive(zip.path, {
        targetDir: layout.outputDir(run.projectName),
        workDir: layout.tmpDir,
        logger,
        limits: { maxTotalBytes: MAX_OUTPUT_BYTES * 4 },
      });
      remote().outputReceived(run.id, worker);
      res.setHeader('Cache-Control', 'no-store');
      res.json(routes.workerJobUpload.response.parse({ files: result.fileCount }));
    } finally {
      fs.rm(zip.path, { force: true }, () => {});
    }
  });

  defineRoute(router, routes.workerJobPreview, async ({ params, body, req }) => {
    const r = remote();
    const run = r.runOf(params.id, body.worker);
    const name = run.projectName;
    const p = body.preview;
    if (p.kind === 'static') {
      const root = p.root === 'project' ? layout.projectDir(name) : layout.outputDir(name);
      // The run's plan (made here) says how the site answers; the worker's flag is for plans without it.
      const info = await previews.serveStatic(name, root, {
        spaFallback: p.spaFallback,
        site: run.snapshot().blueprint?.site ?? null,
      });
      return { url: info.url };
    }
    const host = p.host ?? req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1';
    const info = await previews.relay(name, { host, port: p.port }, () =>
      r.stopPreviewOn(body.worker, name, p.port),
    );
    return { url: info.url };
  });
}
