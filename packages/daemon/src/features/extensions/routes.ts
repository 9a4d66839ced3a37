import { rm } from 'node:fs/promises';
import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { receiveZip } from '../uploads/receive-zip.ts';
import type { FamilyGuard } from '../family/service.ts';
import { MAX_EXTENSION_ZIP_BYTES, MAX_EXTENSION_ZIP_LABEL } from './limits.ts';
import type { ExtensionService } from './service.ts';

export interface ExtensionRouteDeps {
  extensions: ExtensionService;
  /** Installs, rollbacks and removals are audited as family actions, by whoever is signed in. */
  family: Pick<FamilyGuard, 'auditBy'>;
  /** Where an uploaded ZIP waits while it is checked. */
  tmpDir: string;
}

/**
 * ExtensionBot's routes: GET /api/extensions (polled every 5 s: answered from memory),
 * POST /api/upload-extension (multipart "zipfile", .zip, at most 10 MB), DELETE /api/extensions/:name.
 */
export function registerExtensionRoutes(router: Router, deps: ExtensionRouteDeps): void {
  const { extensions: service, family, tmpDir } = deps;

  defineRoute(router, routes.extensions, async () => {
    // Only the first list after a start waits for the servers of the installed extensions.
    await service.ready();
    return service.list();
  });

  router.post(routes.uploadExtension.path, async (req, res) => {
    const zip = await receiveZip(req, {
      field: routes.uploadExtension.multipart.field,
      tmpDir,
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
    const { name, version } = installed.extension;
    const upgraded = installed.upgradedFrom ? ` (upgraded from ${installed.upgradedFrom})` : '';
    family.auditBy(req, 'extension-installed', `${name}@${version}${upgraded}`);
    res.setHeader('Cache-Control', 'no-store');
    res.json(routes.uploadExtension.response.parse({ ok: true, ...installed }));
  });

  defineRoute(router, routes.rollbackExtension, async ({ params, req }) => {
    const { extension, rolledBackFrom } = await service.rollback(params.name);
    family.auditBy(
      req,
      'extension-rolled-back',
      `${extension.name}@${rolledBackFrom} → ${extension.version ?? '?'}`,
    );
    return { ok: true as const, extension, rolledBackFrom };
  });

  defineRoute(router, routes.deleteExtension, async ({ params, req }) => {
    await service.uninstall(params.name);
    family.auditBy(req, 'extension-removed', params.name);
    return { ok: true as const, name: params.name };
  });
}
