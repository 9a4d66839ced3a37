import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Router } from 'express';
import { PackagePlatformResponse, routes } from '@forge/shared';
import { ForgeError } from '../../http/forge-error.ts';
import type { Logger } from '../../logging/logger.ts';
import type { FamilyGuard } from '../family/service.ts';
import type { PackagingService } from './service.ts';

export interface PackagingRouteDeps {
  packaging: PackagingService;
  /** Packaging the platform and downloading it are for the family only. */
  family: Pick<FamilyGuard, 'require'>;
  logger: Logger;
}

/** The 404 text before the first archive: what the user has to do (the web's "Repackage Platform" card). */
export const NO_PACKAGE_MESSAGE = 'No platform package yet: Repackage Platform first.';

/**
 * PackageBot's routes: POST /api/package-platform packages the running Forge into an installable ZIP
 * in the background (family token required), GET /api/download/app downloads the newest one.
 * docs/packaging.md describes the archive and the status texts.
 */
export function registerPackagingRoutes(router: Router, deps: PackagingRouteDeps): void {
  const { packaging, family, logger } = deps;

  // Not defineRoute: it answers 200, and this answer is 202 Accepted (the work goes on after it).
  router.post(routes.packagePlatform.path, (req, res) => {
    const member = family.require(req);
    const { started, status } = packaging.trigger(member.name);
    res.setHeader('Cache-Control', 'no-store');
    res.status(started ? 202 : 200).json(PackagePlatformResponse.parse({ status }));
  });

  router.get(routes.downloadApp.path, async (req, res) => {
    family.require(req);
    const latest = await packaging.latest();
    if (!latest) throw new ForgeError('NO_PACKAGE', NO_PACKAGE_MESSAGE);
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Disposition', `attachment; filename="${latest.name}"`);
    res.setHeader('Content-Length', String(latest.bytes));
    res.setHeader('Cache-Control', 'no-store');
    try {
      // The archive is never rewritten in place (tmp + rename), so the open file stays whole even
      // if a newer package prunes it meanwhile.
      await pipeline(createReadStream(latest.file), res);
    } catch (err) {
      logger.warn({ err, file: latest.file }, 'platform download ended early');
      if (!res.headersSent) throw err;
      res.destroy();
    }
  });
}
