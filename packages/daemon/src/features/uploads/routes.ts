import fs from 'node:fs';
import type { Response, Router } from 'express';
import { AppDir, routes, TESTS_POLICIES, TestsPolicy, type UploadResult } from '@forge/shared';
import { ForgeError } from '../../http/forge-error.ts';
import type { HomeLayout } from '../../home-layout.ts';
import type { BuildService } from '../builds/service.ts';
import type { BuildRun } from '../../engine/build-run.ts';
import { receiveZip } from './receive-zip.ts';

/** After a refused upload the client may still be sending: answer, then close the connection. */
function closeAfter(res: Response): void {
  res.setHeader('Connection', 'close');
}

export function registerUploadRoutes(
  router: Router,
  deps: { builds: BuildService; layout: HomeLayout },
): void {
  router.post(routes.upload.path, async (req, res) => {
    const rapid = req.query.rapid === '1' || req.query.rapid === 'true';
    const noCache = req.query.noCache === '1' || req.query.noCache === 'true';
    const appParam = typeof req.query.app === 'string' ? req.query.app : undefined;
    if (appParam !== undefined && !AppDir.safeParse(appParam).success) {
      throw new ForgeError(
        'VALIDATION_FAILED',
        `"app" must be a folder inside the project, such as apps/web, or "." for the project root (got "${appParam}").`,
      );
    }
    const app = appParam;
    const testsParam = req.query.tests;
    const tests = testsParam === undefined ? undefined : TestsPolicy.safeParse(testsParam).data;
    if (testsParam !== undefined && tests === undefined) {
      throw new ForgeError(
        'VALIDATION_FAILED',
        `"tests" must be one of ${TESTS_POLICIES.join(', ')} (got "${String(testsParam)}").`,
      );
    }
    let run: BuildRun | null = null;
    try {
      const zip = await receiveZip(req, {
        field: routes.upload.multipart.field,
        tmpDir: deps.layout.tmpDir,
        onFileStart: (fileName) => (run = deps.builds.beginUpload(fileName, { noCache, rapid, app, tests })),
      });
      // From here the build owns the archive (a queued build extracts it later) and removes it.
      const result: UploadResult = await deps.builds.finishUpload(run!, zip.path);
      res.setHeader('Cache-Control', 'no-store');
      res.json(routes.upload.response.parse(result));
    } catch (err) {
      if (run && !(run as BuildRun).finished) deps.builds.failUpload(run, err);
      if (err instanceof ForgeError && (err.code === 'FILE_TOO_LARGE' || err.code === 'INVALID_FILE_TYPE'))
        closeAfter(res);
      throw err;
    }
  });

  router.post(routes.planArchive.path, async (req, res) => {
    const zip = await receiveZip(req, {
      field: routes.planArchive.multipart.field,
      tmpDir: deps.layout.tmpDir,
    }).catch((err: unknown) => {
      if (err instanceof ForgeError && err.code === 'FILE_TOO_LARGE') closeAfter(res);
      throw err;
    });
    try {
      res.setHeader('Cache-Control', 'no-store');
      res.json(routes.planArchive.response.parse(await deps.builds.plan(zip.path)));
    } finally {
      fs.rm(zip.path, { force: true }, () => {});
    }
  });
}
