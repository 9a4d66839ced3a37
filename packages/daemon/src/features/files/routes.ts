import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import { ForgeError } from '../../http/forge-error.ts';
import type { FilesService } from './service.ts';

/**
 * /api/files/*: the project's tree and files (docs/product.md#http-calls; both body forms of create; rename
 * made real).
 */
export function registerFileRoutes(router: Router, deps: { files: FilesService }): void {
  const { files } = deps;

  // The tree can hold 20k nodes: checking it against the recursive zod schema would cost more than
  // the walk itself (the 100 ms budget for 10k files), and the service builds it from typed code.
  // So this one answer is sent unchecked; its query is still parsed like every other route's.
  router.get(routes.fileStructure.path, async (req, res) => {
    const query = routes.fileStructure.query.safeParse(req.query);
    if (!query.success) {
      const issues = query.error.issues.map((i) => ({
        path: i.path.map(String).join('.'),
        message: i.message,
      }));
      throw new ForgeError('VALIDATION_FAILED', undefined, { part: 'query', issues });
    }
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json(await files.structure(query.data.project));
  });

  defineRoute(router, routes.fileContent, ({ query }) => files.content(query.path, query.project));

  defineRoute(router, routes.fileSave, async ({ body }) => ({
    ok: true as const,
    path: await files.save(body.path, body.content, body.project),
  }));

  defineRoute(router, routes.fileCreate, ({ body }) => ({ ok: true as const, path: files.create(body) }));

  defineRoute(router, routes.fileDelete, ({ body }) => ({
    ok: true as const,
    path: files.remove(body.path, body.project),
  }));

  defineRoute(router, routes.fileRename, ({ body }) => ({
    ok: true as const,
    path: files.rename(body.from, body.to, body.project),
  }));
}
