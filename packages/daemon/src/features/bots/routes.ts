import type { Router } from 'express';
import { BOT_ROSTER, routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import { ForgeError } from '../../http/forge-error.ts';
import type { Fleet } from '../../fleet/fleet.ts';
import type { BuildRepo } from '../builds/repo.ts';
import type { BuildService } from '../builds/service.ts';
import { currentProject } from '../projects/routes.ts';
import type { AppServices } from '../../app.ts';
import { forgeIssuesText, forgeStatusText, forgeWorkflowText } from '../forge/operations.ts';

/** Bots whose job is a step of the build pipeline: "Build" on their card runs a build. */
const PIPELINE_BOTS = new Set([
  'ExtractBot',
  'DependencyBot',
  'CacheBot',
  'PreviewBot',
  'PackageBot',
  'BuildBot',
  'UiBot',
  'TestBot',
  'OptimizationBot',
  'BlueprintBot',
  'IntegrationBot',
  'RepairBot',
  'LintBot',
]);

/** Bots whose "Build" runs their own job on the current project and answers what it found. */
const OWN_JOBS: Record<string, (services: AppServices) => Promise<string>> = {
  ScanBot: forgeIssuesText,
  WorkflowBot: forgeWorkflowText,
  HealthBot: forgeStatusText,
};

/** Where the work of the assistants' bots is asked for, for a card's "Build" on them. */
const WORKS_FROM: Record<string, string> = {
  CodeGenBot: 'the Code Generator page (or forge generate)',
  BrainBot: 'the brain chat (or forge brain)',
  ForgeBot: 'the Forge assistant (or forge chat)',
  ChatBot: 'the Console chat (or forge chat)',
  MemoryBot: 'the brain\'s "remember …" (or forge memory)',
  LogBot: 'every build (its log)',
  WatchBot: 'the file explorer and editor (file changes)',
  ExtensionBot: 'the extension manager (or forge ext)',
  AuthBot: 'the university login (or forge family)',
};

function requireBot(name: string): void {
  if (!BOT_ROSTER.some((b) => b.name === name)) {
    throw new ForgeError('BOT_NOT_FOUND', `There is no bot named "${name}".`);
  }
}

export function registerBotRoutes(
  router: Router,
  deps: { fleet: Fleet; builds: BuildService; repo: BuildRepo; services: AppServices },
): void {
  const { fleet, builds, repo } = deps;

  defineRoute(router, routes.botStatus, () => ({ success: true, activities: fleet.activities() }));
  defineRoute(router, routes.bots, () => fleet.list());

  defineRoute(router, routes.botBuild, async ({ body }) => {
    requireBot(body.botName);
    const own = OWN_JOBS[body.botName];
    if (own) return { ok: true, botName: body.botName, message: await own(deps.services) };
    if (!PIPELINE_BOTS.has(body.botName)) {
      const where = WORKS_FROM[body.botName];
      throw new ForgeError(
        'BOT_HAS_NO_JOB',
        `${body.botName} has no build job to run${where ? `: it works from ${where}` : '; it serves the workspace'}.`,
      );
    }
    const project = currentProject(repo);
    if (!project) throw new ForgeError('PROJECT_NOT_FOUND', 'No project has been uploaded yet.');
    const build = await builds.startBuild(project, { noCache: true });
    return {
      ok: true,
      botName: body.botName,
      message: `${body.botName} started build ${build.id} of ${project}.`,
    };
  });

  defineRoute(router, routes.botFix, async ({ body }) => {
    requireBot(body.botName);
    const failed = fleet.lastFailure(body.botName);
    if (!failed?.projectName) {
      throw new ForgeError('NOTHING_TO_FIX', `${body.botName} has no failed job to retry.`);
    }
    const build = await builds.startBuild(failed.projectName, { noCache: true });
    return {
      ok: true,
      botName: body.botName,
      message: `${body.botName} is retrying ${failed.label} as build ${build.id}.`,
    };
  });
}
