import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import { forgeChangesText } from './changes.ts';
import { projectAsked } from '../projects/projects.ts';
import {
  forgeBlueprintText,
  forgeIssuesText,
  forgeStatusText,
  forgeWorkflowText,
  scanProjectNamed,
  type OperationDeps,
} from './operations.ts';

/**
 * Routes of Forge operations: the assistant's blueprint, workflow, issues and status texts
 * (docs/product.md#http-calls, `{ text }`), and ScanBot's scan of a named project as JSON.
 */
export function registerAssistantRoutes(router: Router, services: OperationDeps): void {
  // ForgeBot takes the Forge assistant's command and hands it to the bot that knows the answer.
  // The project asked is checked first: an unknown name is a 404, not a failed job of ForgeBot.
  const viaForgeBot =
    (command: string, answer: (s: OperationDeps, project: string | null) => Promise<string>) =>
    async ({ query }: { query: { project?: string | undefined } }) => {
      const project = projectAsked(services, query.project);
      return {
        text: await services.fleet.run(
          'ForgeBot',
          { label: `assistant: ${command}` },
          () => answer(services, project),
          { slot: false, summary: () => `answered "${command}"` },
        ),
      };
    };
  defineRoute(router, routes.forgeBlueprint, viaForgeBot('blueprint', forgeBlueprintText));
  defineRoute(router, routes.forgeWorkflow, viaForgeBot('workflow', forgeWorkflowText));
  defineRoute(router, routes.forgeIssues, viaForgeBot('list issues', forgeIssuesText));
  defineRoute(router, routes.forgeStatus, viaForgeBot('status', forgeStatusText));
  defineRoute(router, routes.forgeChanges, viaForgeBot('what changed', forgeChangesText));
  defineRoute(router, routes.projectScan, ({ params }) => scanProjectNamed(services, params.name));
}
