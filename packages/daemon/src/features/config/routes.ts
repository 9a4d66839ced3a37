import type { Router } from 'express';
import { routes, type DaemonConfigView } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';

/**
 * `GET /api/config`: the configuration this daemon runs with, as `forge config print` shows it
 * (secrets as "***"). The CLI asks the daemon rather than loading the config itself: the daemon
 * may have been started from another directory or with another environment than the CLI's.
 */
export function registerConfigRoutes(
  router: Router,
  deps: { configView: () => DaemonConfigView; version: string },
): void {
  defineRoute(router, routes.config, () => ({
    ...deps.configView(),
    pid: process.pid,
    version: deps.version,
  }));
}
