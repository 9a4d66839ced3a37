import path from 'node:path';
import { formatCommand, plural, type Blueprint } from '@forge/shared';
import type { SiteReport } from '../../capabilities/preview/site-answers.ts';
import type { BuildRepo } from '../build-repo.ts';
import type { PreviewRegistry } from '../../capabilities/preview/preview-registry.ts';
import { ServerAppStartError } from '../../capabilities/preview/server-app.ts';
import { failure, type BuildFailure, type Step } from './types.ts';

export interface PreviewInput {
  blueprint: Blueprint;
  /** What to serve (a static site or build output), or where a server app runs. */
  root: string;
}

/** The project's root from a server app's folder (`root` is the project's folder joined with appDir). */
export const projectRootOf = (root: string, appDir: string): string =>
  path.resolve(
    root,
    ...appDir
      .split('/')
      .filter((part) => part !== '' && part !== '.')
      .map(() => '..'),
  );

/**
 * A start that failed, as the step's failure: the one-sentence reason, and the app's last lines and
 * first error line as evidence (each line its own, never run together into the message).
 */
export function startFailure(err: unknown): BuildFailure {
  if (err instanceof ServerAppStartError) {
    return { ...failure('failed', 'PREVIEW_FAILED', err.message), evidence: err.evidence };
  }
  return failure('failed', 'PREVIEW_FAILED', `The app did not start: ${(err as Error).message}`);
}

/** What the static preview applies, in the step's log: the fallback, the rules, those it cannot apply. */
function logSite(ctx: Parameters<Step<PreviewInput, string>['run']>[0], site: SiteReport): void {
  ctx.log(
    'info',
    site.spa
      ? 'A single-page app: paths that name no file answer index.html.'
      : "Several pages: paths that name no file answer the site's 404.html (or Not Found) with 404.",
  );
  if (site.rules > 0)
    ctx.log('info', `Applying ${plural(site.rules, 'redirect and rewrite rule')} of the site.`);
  for (const rule of site.ignored.slice(0, MAX_LOGGED_IGNORED)) {
    ctx.log('warn', `Not applied: ${rule.source} ${rule.rule}: ${rule.why}.`);
  }
  if (site.ignored.length > MAX_LOGGED_IGNORED) {
    ctx.log('warn', `… and ${site.ignored.length - MAX_LOGGED_IGNORED} more rules not applied.`);
  }
}

const MAX_LOGGED_IGNORED = 50;

/**
 * PreviewBot: serve the output at its own origin, or start a server app (its `start` command with
 * PORT) and wait for it to answer — on PORT, or where it was found listening when it ignores PORT
 * (the step's detail and the log say where and how it was found). Records the preview URL.
 */
export function previewStep(deps: {
  previews: PreviewRegistry;
  repo: Pick<BuildRepo, 'setPreviewPid'>;
  sandbox: boolean;
  /** The writable home a project's server app gets, as its build commands do. */
  home?: (projectName: string) => string;
  /** FORGE_HOME/caches, as for its build commands. */
  caches?: string;
}): Step<PreviewInput, string> {
  const { previews, repo } = deps;
  return {
    name: 'preview',
    bot: 'PreviewBot',
    label: (projectName) => `preview ${projectName}`,
    async run(ctx, { blueprint: bp, root }) {
      let url: string;
      let detail: string;
      try {
        if (bp.kind !== 'server') {
          repo.setPreviewPid(ctx.projectName, null);
          const started = await previews.serveStatic(ctx.projectName, root, { site: bp.site });
          url = started.url;
          detail = url;
          if (started.site) logSite(ctx, started.site);
        } else {
          ctx.log('info', `$ ${formatCommand(bp.start!)}`);
          const started = await previews.runServer(ctx.projectName, {
            argv: bp.start!,
            cwd: root,
            projectDir: projectRootOf(root, bp.appDir),
            env: bp.env,
            ...(deps.home ? { home: deps.home(ctx.projectName) } : {}),
            ...(deps.caches ? { caches: deps.caches } : {}),
            signal: ctx.signal,
            // An app of a workspace runs through links into the whole project (root node_modules).
            sandbox:
              deps.sandbox && bp.appDir !== '.'
                ? { writable: [projectRootOf(root, bp.appDir)] }
                : deps.sandbox,
            onLine: (line) => ctx.output(line.stream, line.text),
          });
          repo.setPreviewPid(ctx.projectName, started.pid);
          url = started.url;
          detail = url;
          if (started.found) {
            ctx.log(
              'warn',
              `The app did not answer on PORT ${started.found.givenPort}: ${started.found.detail}. Previewing it at ${url}.`,
            );
            detail = `${url} (${started.found.detail})`;
          }
        }
      } catch (err) {
        const failed = startFailure(err);
        return { ok: false, failure: failed, detail: failed.message };
      }
      ctx.record({ previewUrl: url });
      ctx.log('success', `Preview at ${url}`);
      return { ok: true, value: url, detail };
    },
  };
}
