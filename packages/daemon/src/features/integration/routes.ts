import type { Router } from 'express';
import { routes, type DynamicRoute } from '@forge/shared';
import type { AppDeps, AppServices, FeatureHandle } from '../../app.ts';
import { defineRoute } from '../../http/define-route.ts';
import { projectAsked } from '../projects/routes.ts';
import { familyOf } from '../family/guard.ts';
import { createIntegrationService, type IntegrationService } from './service.ts';

/**
 * IntegrationBot's routes: publish a build as an app of the platform (the Build Complete dialog's
 * Integrate, and the Forge assistant's "integrate"), and save a build output as a ZIP on this machine
 * (the dialog's "Save to File").
 */

const bound = new WeakMap<AppServices, IntegrationService>();

/** The integrated apps of an app's daemon, for GET /api/dynamic-routes; null before registration. */
export function appsOf(services: AppServices): { list(): DynamicRoute[] } | null {
  const integration = bound.get(services);
  return integration ? { list: () => integration.list() } : null;
}

/** IntegrationBot's service of an app's daemon (the bot card's Build), null before registration. */
export const integrationOf = (services: AppServices): IntegrationService | null =>
  bound.get(services) ?? null;

export function registerIntegrationRoutes(
  router: Router,
  services: AppServices,
  _deps: AppDeps,
): FeatureHandle {
  const integration = createIntegrationService(services);
  bound.set(services, integration);
  // The apps published before this start are served again, in the background.
  void integration.start();

  defineRoute(router, routes.integrate, async ({ body }) => {
    const app = await integration.integrate(body.projectName, body.buildPath);
    return { ok: true, text: `Integrated ${app.name} at ${app.path}`, path: app.path, url: app.url };
  });

  defineRoute(router, routes.forgeIntegrateLast, async ({ query }) => {
    const app = await integration.integrateLast(projectAsked(services, query.project));
    return {
      text: `Integrated ${app.name} at ${app.path}: build ${app.buildId}, ${app.files} ${app.files === 1 ? 'file' : 'files'}, served at ${app.url}`,
    };
  });

  defineRoute(router, routes.apps, () => integration.apps());

  defineRoute(router, routes.rollbackApp, async ({ params, req }) => {
    const result = await integration.rollback(params.name);
    const family = familyOf(services);
    family?.audit(
      'app-rolled-back',
      family.authenticate(req)?.name ?? null,
      `${params.name}: build ${result.rolledBackFrom} → ${result.app.buildId}`,
      req,
    );
    return { ok: true as const, ...result };
  });

  defineRoute(router, routes.saveProject, async ({ body }) => {
    const file = await integration.save(body.projectName, body.buildPath);
    return { ok: true, text: `Saved ${file}`, file };
  });

  return { close: () => integration.close() };
}
