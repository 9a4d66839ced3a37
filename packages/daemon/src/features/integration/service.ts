import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { projectZipName, type DynamicRoute, type IntegratedApp, type ProjectKind } from '@forge/shared';
import type { CoreServices } from '../services.ts';
import { discardDir, swapDir } from '../../fs/moves.ts';
import { isValidProjectName } from '../../home-layout.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { zipDirToFile } from '../../capabilities/artifacts/zip-dir.ts';
import { startStaticPreview, type StaticPreview } from '../../capabilities/preview/static-server.ts';
import { artifactDir, currentProject } from '../projects/projects.ts';
import { createAppsRepo, type IntegratedAppRecord } from './apps-repo.ts';
import { copyTree, leftOut } from './snapshot.ts';

/**
 * IntegrationBot: publishes a successful build's output as an app of the platform, shown at
 * /apps/<name>. The output is copied (a snapshot under FORGE_HOME/apps/<name>/<buildId>/), so later
 * builds never change a published app until it is integrated again; the snapshot it replaces is kept
 * for a rollback, older ones are removed. Each app is served as static files from its own origin (its
 * own loopback port, like a static preview): its code never runs inside the daemon's origin, so it can
 * neither read the daemon's answers nor pass its Origin check.
 *
 * Also PackageBot's "Save to File": a ZIP of a build output in FORGE_HOME/saved/.
 */

/** Where a published app is shown in the workspace. */
export const appRoute = (name: string): string => `/apps/${name}`;

/** The result of a publish, for the route answers. */
export interface Published {
  name: string;
  buildId: string;
  files: number;
  path: string;
  url: string;
}

export interface IntegrationService {
  /** Publishes `projectName`'s last successful build; `buildPath` must be where that output is. */
  integrate(projectName: string, buildPath: string): Promise<Published>;
  /** The same for the current project (the most recently uploaded or built). */
  /** Integrate the last successful build of `project` (a name checked by the route; default: the current one). */
  integrateLast(project?: string | null): Promise<Published>;
  /** Writes `{projectName}.zip` of the build output into FORGE_HOME/saved/; resolves with its path. */
  save(projectName: string, buildPath: string): Promise<string>;
  /** Every published app as a route of the platform (`url` null while its server is not up). */
  list(): DynamicRoute[];
  /** Every published app with the build it serves and the one kept for a rollback. */
  apps(): IntegratedApp[];
  /**
   * Serves the previously published build again; the current one becomes the previous (a second
   * rollback undoes the first). APP_NOT_FOUND, or NO_PREVIOUS_VERSION when none is kept.
   */
  rollback(name: string): Promise<{ app: IntegratedApp; rolledBackFrom: string }>;
  /** Starts the servers of the apps published before this daemon started. */
  start(): Promise<void>;
  close(): Promise<void>;
}

interface Output {
  name: string;
  dir: string;
  buildId: string;
  kind: ProjectKind | null;
}

const tmpName = (label: string): string => `${label}-${Date.now()}-${randomBytes(4).toString('hex')}`;

/** What IntegrationBot works with: the builds' records and folders, its bot card, its own table. */
export type IntegrationDeps = Pick<CoreServices, 'repo' | 'layout' | 'fleet' | 'logger' | 'store'>;

export function createIntegrationService(services: IntegrationDeps): IntegrationService {
  const { repo, layout, fleet, logger } = services;
  const apps = createAppsRepo(services.store);
  const appsDir = path.join(layout.home, 'apps');
  const savedDir = path.join(layout.home, 'saved');
  const servers = new Map<string, { buildId: string; server: StaticPreview }>();
  /** One publish at a time per app: two integrations of one project never interleave their swaps. */
  const queues = new Map<string, Promise<unknown>>();
  let closed = false;
  let starting: Promise<void> | null = null;

  const snapshotDir = (name: string, buildId: string) => path.join(appsDir, name, buildId);

  /**
   * The build output `buildPath` names, checked: it must be exactly the folder the project's last
   * successful build left (its stored output, or the project folder of a plain static site). Nothing
   * else on this machine is ever read, whatever path a client sends.
   */
  function outputOf(projectName: string, buildPath: string): Output {
    const name = projectName;
    if (!isValidProjectName(name) || !repo.project(name)) {
      throw new ForgeError('PROJECT_NOT_FOUND', `There is no project named "${name}".`);
    }
    const given = path.isAbsolute(buildPath) ? path.resolve(buildPath) : null;
    const candidates = [path.resolve(layout.outputDir(name)), path.resolve(layout.projectDir(name))];
    if (given === null || !candidates.includes(given)) {
      throw new ForgeError(
        'PATH_OUTSIDE_PROJECT',
        `"${buildPath}" is not the build output of ${name}: send the buildPath of its build_complete message.`,
      );
    }
    const output = repo.project(name)?.output;
    const dir = output ? artifactDir(services, name) : null;
    if (!output || !dir) {
      throw new ForgeError(
        'NO_ARTIFACT',
        `${name} has no successful build yet: build it first (forge build ${name}).`,
      );
    }
    if (path.resolve(dir) !== given) {
      throw new ForgeError(
        'PATH_OUTSIDE_PROJECT',
        `"${buildPath}" is not where the output of ${name}'s last successful build (${output.buildId}) is.`,
      );
    }
    const kind = repo.get(output.buildId)?.blueprint?.kind ?? null;
    return { name, dir, buildId: output.buildId, kind };
  }

  function queued<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const run = (queues.get(name) ?? Promise.resolve()).catch(() => undefined).then(fn);
    queues.set(name, run);
    void run
      .finally(() => {
        if (queues.get(name) === run) queues.delete(name);
      })
      .catch(() => undefined);
    return run;
  }

  /** Serves the app's current snapshot on a new port, then stops the server of the one it replaces. */
  async function serve(app: IntegratedAppRecord): Promise<StaticPreview> {
    // The build's plan says how the site answers (a single-page app's fallback, a site's 404.html).
    const site = repo.get(app.buildId)?.blueprint?.site ?? null;
    const server = await startStaticPreview({ root: snapshotDir(app.name, app.buildId), site });
    if (closed) {
      await server.close();
      throw new ForgeError('SHUTTING_DOWN');
    }
    const before = servers.get(app.name);
    servers.set(app.name, { buildId: app.buildId, server });
    if (before && before.server !== server) await before.server.close();
    return server;
  }

  /** Keeps the current and the previous snapshot of an app; every older one goes. */
  function prune(app: IntegratedAppRecord): void {
    const keep = new Set([app.buildId, app.previousBuildId].filter((id): id is string => id !== null));
    const dir = path.join(appsDir, app.name);
    for (const entry of fs.readdirSync(dir)) {
      if (!keep.has(entry)) discardDir(path.join(dir, entry), layout.tmpDir);
    }
  }

  /**
   * The output, if it can be integrated. Checked before IntegrationBot's job starts: a refused
   * integrate is the request's answer (no such output, a server app), not a failed job of the bot.
   */
  function integrable(output: Output): Output {
    if (output.kind === 'server') {
      throw new ForgeError(
        'INTEGRATION_UNAVAILABLE',
        `${output.name} is a server app: only static sites and built sites can be integrated for now. Download it meanwhile: forge download ${output.name}`,
      );
    }
    return output;
  }

  async function publish(output: Output): Promise<Published> {
    const { name, buildId } = output;
    return queued(name, async () => {
      fs.mkdirSync(layout.tmpDir, { recursive: true });
      const staging = path.join(layout.tmpDir, tmpName(`integrate-${name}`));
      let files: number;
      try {
        files = await copyTree(output.dir, staging);
      } catch (error) {
        fs.rmSync(staging, { recursive: true, force: true });
        throw error;
      }
      // Renames only: the snapshot appears whole or not at all (re-integrating a build replaces it).
      swapDir(staging, snapshotDir(name, buildId), layout.tmpDir);
      const before = apps.get(name);
      const previousBuildId =
        before && before.buildId !== buildId ? before.buildId : (before?.previousBuildId ?? null);
      const app: IntegratedAppRecord = {
        name,
        buildId,
        files,
        previousBuildId,
        integratedAt: new Date().toISOString(),
      };
      apps.save(app);
      const server = await serve(app);
      prune(app);
      logger.info({ project: name, buildId, files, url: server.url }, 'app integrated');
      return { name, buildId, files, path: appRoute(name), url: server.url };
    });
  }

  const urlOf = (app: IntegratedAppRecord): string | null => {
    const served = servers.get(app.name);
    return served?.buildId === app.buildId ? served.server.url : null;
  };

  const toApp = (app: IntegratedAppRecord): IntegratedApp => ({
    name: app.name,
    path: appRoute(app.name),
    url: urlOf(app),
    buildId: app.buildId,
    previousBuildId: app.previousBuildId,
    files: app.files,
    integratedAt: app.integratedAt,
  });

  /** The app and the snapshot a rollback would bring back, or the error that says why not. */
  function rollbackTarget(name: string): { app: IntegratedAppRecord; previous: string } {
    const app = isValidProjectName(name) ? apps.get(name) : null;
    if (!app) throw new ForgeError('APP_NOT_FOUND', `There is no integrated app named "${name}".`, { name });
    const previous = app.previousBuildId;
    if (previous === null || !fs.existsSync(snapshotDir(name, previous))) {
      throw new ForgeError(
        'NO_PREVIOUS_VERSION',
        `${name} serves build ${app.buildId} and has no previous build to roll back to: Forge keeps the one an integration replaced.`,
        { name },
      );
    }
    return { app, previous };
  }

  const asJob = (name: string, fn: () => Promise<Published>) =>
    fleet.run('IntegrationBot', { label: `integrate ${name}`, projectName: name }, fn, {
      slot: false,
      summary: (r) => `integrated build ${r.buildId} of ${r.name} at ${r.path} (${r.files} files)`,
    });

  return {
    integrate(projectName, buildPath) {
      const output = integrable(outputOf(projectName, buildPath));
      return asJob(projectName, () => publish(output));
    },

    integrateLast(project) {
      const name = project ?? currentProject(repo);
      const output = name ? repo.project(name)?.output : null;
      const dir = name && output ? artifactDir(services, name) : null;
      if (!name || !dir) {
        throw new ForgeError(
          'NO_ARTIFACT',
          name
            ? `${name} has no successful build to integrate yet: build it first (forge build ${name}).`
            : 'There is no successful build to integrate yet: upload a project first.',
        );
      }
      const ready = integrable(outputOf(name, dir));
      return asJob(name, () => publish(ready));
    },

    async save(projectName, buildPath) {
      const output = outputOf(projectName, buildPath);
      return fleet.run(
        'PackageBot',
        { label: `save ${output.name}`, projectName: output.name },
        async () => {
          fs.mkdirSync(savedDir, { recursive: true });
          fs.mkdirSync(layout.tmpDir, { recursive: true });
          const file = path.join(savedDir, projectZipName(output.name));
          const partial = path.join(layout.tmpDir, tmpName(`save-${output.name}`));
          const result = await zipDirToFile(output.dir, partial, { exclude: (rel) => leftOut(rel) });
          if (result.aborted) throw new Error(`Saving ${file} stopped before the ZIP was complete.`);
          // A reader of saved/ sees the old ZIP or the new one, never half of one.
          fs.renameSync(partial, file);
          return file;
        },
        { slot: false, summary: (file) => `saved ${file}` },
      );
    },

    list() {
      return apps.list().map((app) => ({
        path: appRoute(app.name),
        name: app.name,
        displayName: app.name,
        description: `Build ${app.buildId} of ${app.name}, integrated ${app.integratedAt}`,
        kind: 'app' as const,
        url: urlOf(app),
      }));
    },

    apps() {
      return apps.list().map(toApp);
    },

    async rollback(name) {
      // Checked first: nothing to roll back to is the caller's mistake, not a failed job of the bot.
      rollbackTarget(name);
      return fleet.run(
        'IntegrationBot',
        { label: `roll back ${name}`, projectName: name },
        () =>
          queued(name, async () => {
            const { app, previous } = rollbackTarget(name);
            const dir = snapshotDir(name, previous);
            const files = fs
              .readdirSync(dir, { recursive: true, withFileTypes: true })
              .filter((e) => e.isFile()).length;
            const back: IntegratedAppRecord = {
              name,
              buildId: previous,
              files,
              previousBuildId: app.buildId,
              integratedAt: new Date().toISOString(),
            };
            // Served first, saved second: a snapshot that cannot be served leaves the app as it was.
            const server = await serve(back);
            apps.save(back);
            logger.info(
              { project: name, buildId: previous, from: app.buildId, url: server.url },
              'app rolled back',
            );
            return { app: toApp(back), rolledBackFrom: app.buildId };
          }),
        {
          slot: false,
          summary: (r) => `rolled back ${name} from build ${r.rolledBackFrom} to ${r.app.buildId}`,
        },
      );
    },

    start() {
      starting ??= (async () => {
        for (const app of apps.list()) {
          if (closed) return;
          try {
            await queued(app.name, async () => {
              // Read again: a publish may have come first, and its server is the current one.
              const now = apps.get(app.name);
              if (now && servers.get(now.name)?.buildId !== now.buildId) await serve(now);
            });
          } catch (error) {
            logger.warn({ err: error, project: app.name }, 'integrated app could not be served');
          }
        }
      })();
      return starting;
    },

    async close() {
      closed = true;
      await starting;
      await Promise.allSettled([...queues.values()]);
      await Promise.all([...servers.values()].map(({ server }) => server.close()));
      servers.clear();
    },
  };
}
