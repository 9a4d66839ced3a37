import type { Router } from 'express';
import { routes, type ServerMessage, type Settings } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import type { HomeLayout } from '../../home-layout.ts';
import type { Logger } from '../../logging/logger.ts';
import type { BuildRepo } from '../../engine/build-repo.ts';
import type { PreviewRegistry } from '../../capabilities/preview/preview-registry.ts';
import { requireProject } from '../projects/projects.ts';
import { projectHistory } from '../../engine/artifact-history.ts';
import { rollback } from './rollback.ts';

export interface HistoryDeps {
  repo: BuildRepo;
  layout: HomeLayout;
  previews: PreviewRegistry;
  settings: () => Settings;
  broadcast: (message: ServerMessage) => void;
  logger: Logger;
  /** Whether a rolled-back server app runs in the sandbox (as builds' previews do). */
  sandbox?: boolean;
}

/** A project's kept builds and the switch back to one of them (docs/artifacts.md). */
export function registerHistoryRoutes(router: Router, deps: HistoryDeps): void {
  const keep = () => deps.settings().keepArtifacts;

  defineRoute(router, routes.projectHistory, ({ params }) => {
    requireProject(deps, params.name);
    return projectHistory(deps.repo, deps.layout, params.name, keep());
  });

  defineRoute(router, routes.rollback, async ({ params, body }) => {
    requireProject(deps, params.name);
    return rollback({ ...deps, keep }, params.name, body.build);
  });
}
