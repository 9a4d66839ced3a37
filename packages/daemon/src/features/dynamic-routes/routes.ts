import type { Router } from 'express';
import { routes, type DynamicRoute } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import type { ExtensionService } from '../extensions/service.ts';
import type { IntegrationService } from '../integration/service.ts';

export interface DynamicRouteDeps {
  extensions: Pick<ExtensionService, 'list'>;
  integration: Pick<IntegrationService, 'list'>;
}

/**
 * GET /api/dynamic-routes (polled every 10 s): the workspace's routes beyond its own — every
 * installed extension at its manifest route and every integrated app at /apps/<name> — each with
 * where its page is served (its own origin, shown in a sandboxed frame). Answered from memory.
 */
export function registerDynamicRoutes(router: Router, deps: DynamicRouteDeps): void {
  defineRoute(router, routes.dynamicRoutes, (): DynamicRoute[] => {
    const extensions: DynamicRoute[] = deps.extensions.list().map((e) => ({
      path: e.route,
      name: e.name,
      displayName: e.displayName,
      description: e.description ?? '',
      kind: 'extension',
      url: e.url ?? null,
    }));
    const apps = deps.integration.list();
    return [...extensions, ...apps].sort((a, b) => a.path.localeCompare(b.path));
  });
}
