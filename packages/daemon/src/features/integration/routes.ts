import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import type { FamilyGuard } from '../family/service.ts';
import { projectAsked, type ProjectStore } from '../projects/projects.ts';
import type { IntegrationService } from './service.ts';

export interface IntegrationRouteDeps extends ProjectStore {
  integration: IntegrationService;
  /** A rollback is audited as a family action, by whoever is signed in. */
  family: Pick<FamilyGuard, 'auditBy'>;
}

/**
 * IntegrationBot's routes: publish a build as an app of the platform (the Build Complete dialog's
 * Integrate, and the Forge assistant's "integrate"), and save a build output as a ZIP on this machine
 * (the dialog's "Save to File").
 */
export function registerIntegrationRoutes(router: Router, deps: IntegrationRouteDeps): void {
  const { integration, family } = deps;

  defineRoute(router, routes.integrate, async ({ body }) => {
    const app = await integration.integrate(body.projectName, body.buildPath);
    return { ok: true, text: `Integrated ${app.name} at ${app.path}`, path: app.path, url: app.url };
  });

  defineRoute(router, routes.forgeIntegrateLast, async ({ query }) => {
    const app = await integration.integrateLast(projectAsked(deps, query.project));
    return {
      text: `Integrated ${app.name} at ${app.path}: build ${app.buildId}, ${app.files} ${app.files === 1 ? 'file' : 'files'}, served at ${app.url}`,
    };
  });

  defineRoute(router, routes.apps, () => integration.apps());

  defineRoute(router, routes.rollbackApp, async ({ params, req }) => {
    const result = await integration.rollback(params.name);
    family.auditBy(
      req,
      'app-rolled-back',
      `${params.name}: build ${result.rolledBackFrom} → ${result.app.buildId}`,
    );
    return { ok: true as const, ...result };
  });

  defineRoute(router, routes.saveProject, async ({ body }) => {
    const file = await integration.save(body.projectName, body.buildPath);
    return { ok: true, text: `Saved ${file}`, file };
  });
}
