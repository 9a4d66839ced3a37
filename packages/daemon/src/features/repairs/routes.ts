import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { projectAsked } from '../projects/projects.ts';
import type { CoreServices } from '../services.ts';

export type RepairRouteDeps = Pick<CoreServices, 'repairs' | 'repo' | 'layout' | 'fleet'>;

/**
 * RepairBot's routes: apply a failed build's proposed repair (FixIt, `forge fix`), the project's
 * repair journal, undo; and the Forge assistant's "fix modules" (its text answers,
 * docs/product.md#http-calls). Its "integrate" is IntegrationBot's (features/integration).
 */
export function registerRepairRoutes(router: Router, services: RepairRouteDeps): void {
  const { repairs, repo, fleet } = services;

  defineRoute(router, routes.buildFix, ({ params, body }) => repairs.fix(params.id, body.codes));
  defineRoute(router, routes.projectRepairs, ({ params }) => repairs.list(params.name));
  defineRoute(router, routes.undoRepair, ({ params, body }) => repairs.undo(params.name, body.id));

  // "fix modules": RepairBot's missing-module repair on the project asked (default: the current one), then a rebuild.
  defineRoute(router, routes.forgeFixModules, async ({ query }) => {
    // An unknown name is the caller's mistake, answered before RepairBot takes a job.
    const project = projectAsked(services, query.project);
    if (!project) throw new ForgeError('PROJECT_NOT_FOUND', 'No project has been uploaded yet.');
    return fleet.run(
      'RepairBot',
      { label: 'fix modules' },
      async () => {
        const latest = repo.list({ project, limit: 1 })[0];
        const missing = latest?.diagnosis?.code === 'MISSING_PACKAGE';
        if (!latest || !missing) {
          const state = latest
            ? `its last build (${latest.id}) ${latest.status === 'succeeded' ? 'succeeded' : `failed: ${latest.diagnosis?.summary ?? latest.error?.message ?? latest.status}`}`
            : 'it has not been built yet';
          return { text: `No missing modules to repair in ${project}: ${state}.` };
        }
        const result = await repairs.fix(latest.id, ['ADD_MISSING_PACKAGES']);
        return { text: result.message };
      },
      { slot: false, summary: (r) => r.text },
    );
  });
}
