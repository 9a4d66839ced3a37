import type { Router } from 'express';
import { routes } from '@forge/shared';
import type { AppDeps, AppServices, FeatureHandle } from '../../app.ts';
import { defineRoute } from '../../http/define-route.ts';
import { createHealthBot } from '../health/health-bot.ts';
import {
  bindOperations,
  forgeBlueprintText,
  forgeIssuesText,
  forgeStatusText,
  forgeWorkflowText,
  scanProjectNamed,
} from './operations.ts';

/**
 * Routes of Forge operations: the assistant's blueprint, workflow, issues and status texts (spec §7,
 * `{ text }`), and ScanBot's scan of a named project as JSON. Starts HealthBot's rounds; the handle
 * stops them.
 */
export function registerOperationRoutes(router: Router, services: AppServices, deps: AppDeps): FeatureHandle {
  const healthBot = createHealthBot(services);
  bindOperations(services, { sandbox: deps.sandbox ?? true, healthBot });
  healthBot.start();

  defineRoute(router, routes.forgeBlueprint, async () => ({ text: await forgeBlueprintText(services) }));
  defineRoute(router, routes.forgeWorkflow, async () => ({ text: await forgeWorkflowText(services) }));
  defineRoute(router, routes.forgeIssues, async () => ({ text: await forgeIssuesText(services) }));
  defineRoute(router, routes.forgeStatus, async () => ({ text: await forgeStatusText(services) }));
  defineRoute(router, routes.projectScan, ({ params }) => scanProjectNamed(services, params.name));

  return { close: () => healthBot.stop() };
}
