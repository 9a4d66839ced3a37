import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import type { BuildRepo } from '../../engine/build-repo.ts';
import type { BuildService } from './service.ts';

const LOG_PAGE = 1_000;

export function registerBuildRoutes(router: Router, deps: { builds: BuildService; repo: BuildRepo }): void {
  const { builds, repo } = deps;

  defineRoute(router, routes.builds, ({ query }) =>
    repo
      .list({ ...(query.project ? { project: query.project } : {}), limit: query.limit ?? 100 })
      .map((b) => {
        // Running builds: the live record is fresher than the last store write.
        const live = builds.running(b.id);
        return live ? live.snapshot() : b;
      }),
  );

  defineRoute(router, routes.build, ({ params }) => builds.get(params.id));

  defineRoute(router, routes.buildLogs, ({ params, query }) => {
    const build = builds.get(params.id);
    const after = query.after ?? 0;
    const entries = repo.logs(build.id, after, query.limit ?? LOG_PAGE).map((row) => ({
      id: `${build.id}:${row.seq}`,
      seq: row.seq,
      timestamp: row.ts,
      level: row.level,
      botName: row.botName,
      message: row.message,
    }));
    return { entries, truncated: build.logTruncated, next: entries.at(-1)?.seq ?? after };
  });

  defineRoute(router, routes.startBuild, ({ body }) =>
    builds.startBuild(body.projectName, {
      noCache: body.noCache ?? false,
      ...(body.app !== undefined ? { app: body.app } : {}),
      ...(body.tests !== undefined ? { tests: body.tests } : {}),
    }),
  );

  defineRoute(router, routes.cancelBuild, ({ params }) => builds.cancel(params.id, 'user'));
}
