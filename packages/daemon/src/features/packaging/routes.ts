import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Router } from 'express';
import { FORGE_VERSION, PackagePlatformResponse, routes } from '@forge/shared';
import type { AppDeps, AppServices, FeatureHandle } from '../../app.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { familyOf } from '../family/routes.ts';
import { extensionsOf } from '../extensions/routes.ts';
import { requireFamily } from './family-guard.ts';
import { createPackagingService, type PackagingService } from './service.ts';

const bound = new WeakMap<AppServices, PackagingService>();

/** PackageBot's service of an app's daemon (the bot card's Build), null before registration. */
export const packagingOf = (services: AppServices): PackagingService | null => bound.get(services) ?? null;

/** The 404 text before the first archive: what the user has to do (the web's "Repackage Platform" card). */
export const NO_PACKAGE_MESSAGE = 'No platform package yet: Repackage Platform first.';

/**
 * PackageBot's routes: POST /api/package-platform packages the running Forge into an installable ZIP
 * in the background (family token required), GET /api/download/app downloads the newest one.
 * docs/packaging.md describes the archive and the status texts.
 */
export function registerPackagingRoutes(router: Router, services: AppServices, deps: AppDeps): FeatureHandle {
  const packaging = createPackagingService({
    fleet: services.fleet,
    logger: services.logger,
    home: services.layout.home,
    version: deps.version ?? FORGE_VERSION,
    extensions: () =>
      (extensionsOf(services)?.list() ?? []).flatMap((e) =>
        e.version === undefined ? [] : [{ name: e.name, version: e.version }],
      ),
    onPackaged: (archive, actor) =>
      familyOf(services)?.audit('package', actor, `${archive.name} (${archive.bytes} bytes)`),
  });
  bound.set(services, packaging);

  // Not defineRoute: it answers 200, and this answer is 202 Accepted (the work goes on after it).
  router.post(routes.packagePlatform.path, (req, res) => {
    const member = requireFamily(services, req);
    const { started, status } = packaging.trigger(member.name);
    res.setHeader('Cache-Control', 'no-store');
    res.status(started ? 202 : 200).json(PackagePlatformResponse.parse({ status }));
  });

  router.get(routes.downloadApp.path, async (req, res) => {
    requireFamily(services, req);
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
      services.logger.warn({ err, file: latest.file }, 'platform download ended early');
      if (!res.headersSent) throw err;
      res.destroy();
    }
  });

  return {
    // A shutdown waits for the archive in progress, so no half-written tmp file is left behind.
    close: () => packaging.idle(),
  };
}
