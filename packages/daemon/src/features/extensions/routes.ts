import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Router } from 'express';
import { routes, type Extension } from '@forge/shared';
import type { AppDeps, AppServices, FeatureHandle } from '../../app.ts';
import { defineRoute } from '../../http/define-route.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { receiveZip } from '../uploads/receive-zip.ts';
import { MAX_EXTENSION_ZIP_BYTES, MAX_EXTENSION_ZIP_LABEL } from './limits.ts';
import { createExtensionService, type ExtensionService } from './service.ts';
import { familyOf } from '../family/guard.ts';
import { findForgeRoot } from '../packaging/source.ts';

/** The `extensions/` folder beside packages/ in an installed archive of Forge (bundled.ts). */
function bundledExtensionsDir(): string | null {
  const root = findForgeRoot();
  return root === null ? null : path.join(root, 'extensions');
}

/** The extensions of an app, for the features that show them (the lead's GET /api/dynamic-routes). */
export interface ExtensionsView {
  /** Installed extensions with where each is served (url null while its server is not up). */
  list(): Extension[];
}

const services_ = new WeakMap<AppServices, ExtensionService>();

/** The installed extensions of an app, once its extension routes are registered; null before. */
export function extensionsOf(services: AppServices): ExtensionsView | null {
  const service = services_.get(services);
  return service ? { list: () => service.list() } : null;
}

/**
 * ExtensionBot's routes: GET /api/extensions (polled every 5 s: answered from memory),
 * POST /api/upload-extension (multipart "zipfile", .zip, at most 10 MB), DELETE /api/extensions/:name.
 */
export function registerExtensionRoutes(
  router: Router,
  services: AppServices,
  _deps: AppDeps,
): FeatureHandle {
  const service = createExtensionService({
    extensionsDir: path.join(services.layout.home, 'extensions'),
    tmpDir: services.layout.tmpDir,
    store: services.store,
    fleet: services.fleet,
    logger: services.logger,
    bundledDir: bundledExtensionsDir(),
  });
  services_.set(services, service);

  defineRoute(router, routes.extensions, async () => {
    // Only the first list after a start waits for the servers of the installed extensions.
    await service.ready();
    return service.list();
  });

  router.post(routes.uploadExtension.path, async (req, res) => {
    const zip = await receiveZip(req, {
      field: routes.uploadExtension.multipart.field,
      tmpDir: services.layout.tmpDir,
      maxBytes: MAX_EXTENSION_ZIP_BYTES,
    }).catch((err: unknown) => {
      if (err instanceof ForgeError && (err.code === 'FILE_TOO_LARGE' || err.code === 'INVALID_FILE_TYPE')) {
        // The client may still be sending: answer, then close the connection.
        res.setHeader('Connection', 'close');
      }
      if (err instanceof ForgeError && err.code === 'FILE_TOO_LARGE') {
        throw new ForgeError(
          'FILE_TOO_LARGE',
          `File too large: an extension ZIP is at most ${MAX_EXTENSION_ZIP_LABEL}.`,
          {
            maxBytes: MAX_EXTENSION_ZIP_BYTES,
          },
        );
      }
      throw err;
    });
    let installed;
    try {
      installed = await service.install(zip.path, zip.fileName);
    } finally {
      // Gone before the answer: a refused ZIP leaves nothing behind.
      await rm(zip.path, { force: true });
    }
    // Audited as a family action, by the family member signed in if any (the main platform has no login).
    const family = familyOf(services);
    const { name, version } = installed.extension;
    const upgraded = installed.upgradedFrom ? ` (upgraded from ${installed.upgradedFrom})` : '';
    family?.audit(
      'extension-installed',
      family.authenticate(req)?.name ?? null,
      `${name}@${version}${upgraded}`,
      req,
    );
    res.setHeader('Cache-Control', 'no-store');
    res.json(routes.uploadExtension.response.parse({ ok: true, ...installed }));
  });

  defineRoute(router, routes.rollbackExtension, async ({ params, req }) => {
    const { extension, rolledBackFrom } = await service.rollback(params.name);
    const family = familyOf(services);
    family?.audit(
      'extension-rolled-back',
      family.authenticate(req)?.name ?? null,
      `${extension.name}@${rolledBackFrom} → ${extension.version ?? '?'}`,
      req,
    );
    return { ok: true as const, extension, rolledBackFrom };
  });

  defineRoute(router, routes.deleteExtension, async ({ params, req }) => {
    await service.uninstall(params.name);
    const family = familyOf(services);
    family?.audit('extension-removed', family.authenticate(req)?.name ?? null, params.name, req);
    return { ok: true as const, name: params.name };
  });

  return { close: () => service.close() };
}
