import type { Router } from 'express';
import { routes, type DynamicRoute } from '@forge/shared';
import type { AppServices } from '../../app.ts';
import { defineRoute } from '../../http/define-route.ts';
import { extensionsOf } from '../extensions/routes.ts';
import { appsOf } from '../integration/routes.ts';

/**
 * GET /api/dynamic-routes (polled every 10 s): the workspace's routes beyond its own — every
 * installed extension at its manifest route and every integrated app at /apps/<name> — each with
 * where its page is served (its own origin, shown in a sandboxed frame). Answered from memory.
 */
export function registerDynamicRoutes(router: Router, services: AppServices): void {
  defineRoute(router, routes.dynamicRoutes, (): DynamicRoute[] => {
    const extensions: DynamicRoute[] = (extensionsOf(services)?.list() ?? []).map((e) => ({
      path: e.route,
      name: e.name,
      displayName: e.displayName,
      description: e.description ?? '',
      kind: 'extension',
      url: e.url ?? null,
    }));
    const apps = appsOf(services)?.list() ?? [];
    return [...extensions, ...apps].sort((a, b) => a.path.localeCompare(b.path));
  });
}
