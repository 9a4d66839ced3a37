import type { Router } from 'express';
import { BOT_ROSTER, botButtonDisabled, isFinished, routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { projectAsked } from '../projects/projects.ts';
import {
  forgeIssuesText,
  forgeStatusText,
  forgeWorkflowText,
  type OperationDeps,
} from '../assistant/operations.ts';
import type { IntegrationService } from '../integration/service.ts';
import type { PackagingService } from '../packaging/service.ts';
import type { CoreServices } from '../services.ts';
import { evictProjectCache, runLogBot, verifyCaches, type LogRotation } from './jobs.ts';

/**
 * What the bot cards' Build and Fix buttons run: each bot's own job, so the cards need the services
 * those jobs use (the assistant's texts, RepairBot, IntegrationBot, PackageBot, CacheBot, LogBot).
 */
export interface BotRouteDeps extends OperationDeps, Pick<CoreServices, 'repairs' | 'logger'> {
  integration: Pick<IntegrationService, 'integrateLast'>;
  packaging: Pick<PackagingService, 'trigger'>;
  /** How LogBot's card rotates the logs (the same as its schedule, scheduleLogRotation). */
  rotation: LogRotation;
}

type Job = (services: BotRouteDeps, project: string | undefined) => Promise<string>;

function requireBot(name: string): void {
  if (!BOT_ROSTER.some((b) => b.name === name)) {
    throw new ForgeError('BOT_NOT_FOUND', `There is no bot named "${name}".`);
  }
}

/** The project a card's button acts on: the one named (it must exist), else the current one. */
function projectOf(services: BotRouteDeps, named: string | undefined): string {
  const project = projectAsked(services, named);
  if (!project) throw new ForgeError('PROJECT_NOT_FOUND', 'No project has been uploaded yet.');
  return project;
}

export function registerBotRoutes(router: Router, services: BotRouteDeps): void {
  const { fleet, builds, repo } = services;

  const cacheJob = (label: string, fn: () => Promise<string>) =>
    fleet.run('CacheBot', { label }, fn, { summary: (s) => s });

  const repair: Job = async (s, named) => {
    const project = projectOf(services, named);
    // Nothing to repair is an answer, not a failed job: RepairBot's card stays as it was.
    const latest = repo.list({ project, limit: 1 })[0];
    if (!latest || latest.status === 'succeeded' || !isFinished(latest.status)) {
      throw new ForgeError(
        'NOTHING_TO_FIX',
        latest
          ? `The last build of ${project} (${latest.id}) is ${latest.status}: there is nothing to repair.`
          : `Project "${project}" has no build yet.`,
      );
    }
    const result = await fleet.run(
      'RepairBot',
      { label: `repair ${project}`, projectName: project },
      () => s.repairs.fixLatest(project),
      { summary: (r) => r.message },
    );
    return result.message;
  };

  /** Each card's Build: that bot's own job (BOT_BUTTONS says which, or why there is none). */
  const BUILD: Record<string, Job> = {
    ScanBot: (s) => forgeIssuesText(s),
    WorkflowBot: (s) => forgeWorkflowText(s),
    HealthBot: (s) => forgeStatusText(s),
    BuildBot: async (_s, named) => {
      const project = projectOf(services, named);
      const build = await builds.startBuild(project, { noCache: true });
      return `BuildBot started build ${build.id} of ${project}.`;
    },
    RepairBot: repair,
    IntegrationBot: async (s) => {
      const app = await s.integration.integrateLast();
      return `IntegrationBot integrated ${app.name} (build ${app.buildId}) at ${app.path}.`;
    },
    PackageBot: (s) => {
      const { status } = s.packaging.trigger('PackageBot card');
      return Promise.resolve(`PackageBot: ${status}.`);
    },
    CacheBot: (s) => cacheJob('verify caches', () => verifyCaches(s)),
    LogBot: (s) => runLogBot(s, s.rotation, 'rotate logs'),
  };

  /** Each card's Fix, where it is not "run the failed job again". */
  const FIX: Record<string, Job> = {
    BuildBot: async () => {
      const failed = fleet.lastFailure('BuildBot');
      if (!failed?.projectName)
        throw new ForgeError('NOTHING_TO_FIX', 'BuildBot has no failed job to retry.');
      const build = await builds.startBuild(failed.projectName, { noCache: true });
      return `BuildBot is retrying ${failed.label} as build ${build.id}.`;
    },
    RepairBot: repair,
    CacheBot: (s, named) => {
      const project = projectOf(services, named);
      return cacheJob(`evict install cache of ${project}`, () =>
        Promise.resolve().then(() => evictProjectCache(s, project)),
      );
    },
  };

  const refuse = (botName: string, button: 'build' | 'fix'): void => {
    const reason = botButtonDisabled(botName, button);
    if (reason) {
      throw new ForgeError(
        'BOT_HAS_NO_JOB',
        `${botName} has no ${button === 'build' ? 'build' : 'fix'} job to run: ${reason}.`,
      );
    }
  };

  defineRoute(router, routes.botStatus, () => ({ success: true, activities: fleet.activities() }));
  defineRoute(router, routes.bots, () => fleet.list());

  defineRoute(router, routes.botBuild, async ({ body }) => {
    requireBot(body.botName);
    refuse(body.botName, 'build');
    const job = BUILD[body.botName];
    if (!job) throw new ForgeError('BOT_HAS_NO_JOB', `${body.botName} has no build job to run.`);
    return { ok: true, botName: body.botName, message: await job(services, body.project) };
  });

  defineRoute(router, routes.botFix, async ({ body }) => {
    requireBot(body.botName);
    refuse(body.botName, 'fix');
    const own = FIX[body.botName];
    if (own) return { ok: true, botName: body.botName, message: await own(services, body.project) };
    const failed = fleet.lastFailure(body.botName);
    const again = BUILD[body.botName];
    if (!failed || !again) {
      throw new ForgeError('NOTHING_TO_FIX', `${body.botName} has no failed job to retry.`);
    }
    return {
      ok: true,
      botName: body.botName,
      message: await again(services, failed.projectName ?? body.project),
    };
  });
}
