import type { Build, ServerMessage } from '@forge/shared';
import type { Fleet } from '../../engine/fleet/fleet.ts';
import type { Logger } from '../../logging/logger.ts';
import type { BuildRepo } from '../../engine/build-repo.ts';
import type { BuildService } from '../builds/service.ts';
import type { ChangeOrigin } from '../files/service.ts';
import type { Flags } from '../../store/flags.ts';

/** Rebuild once a project's files have been quiet this long. */
export const AUTO_FORGE_SETTLE_MS = 1_500;
/**
 * Changes seen on disk up to this long after a build of the project ended are still the build's own
 * writes (file events arrive a little late; chokidar holds unlinks back 100 ms to pair atomic writes).
 */
export const BUILD_EVENT_SLACK_MS = 300;
const FLAG = 'autoForge';
/** Spec: "Auto-Forge toggle starts on". */
const DEFAULT_ACTIVE = true;

export interface AutoForgeDeps {
  flags: Flags;
  repo: BuildRepo;
  builds: Pick<BuildService, 'startBuild' | 'running'>;
  fleet: Pick<Fleet, 'run'>;
  logger: Logger;
  broadcast: (message: ServerMessage) => void;
  settleMs?: number;
}

interface Pending {
  paths: Set<string>;
  origins: Set<ChangeOrigin>;
  lastChangeAt: number;
  timer: NodeJS.Timeout | null;
}

/** What auto-forge made of one change it was told about: kept for a rebuild, or why not. */
export interface AutoForgeNote {
  project: string;
  paths: readonly string[];
  origin: ChangeOrigin;
  outcome: 'pending' | 'off' | 'never-built' | 'build-own' | 'server-app';
}

const isRunning = (b: Build) => b.status === 'queued' || b.status === 'running';

const listPaths = (paths: Set<string>): string => {
  const all = [...paths];
  const shown = all.slice(0, 3).join(', ');
  return all.length > 3 ? `${shown} and ${all.length - 3} more` : shown;
};

/**
 * Auto-forge (the header and right-column toggle, persisted, on by default): when a project that has
 * been built before changes, WatchBot rebuilds it once the changes settle. What a build writes itself
 * never triggers one (docs/decisions.md "Files"): its output, node_modules and .git are not watched,
 * and changes seen on disk while a build of the project runs (or just after) are the build's.
 */
export function createAutoForge(deps: AutoForgeDeps) {
  const { flags, repo, logger } = deps;
  const settleMs = deps.settleMs ?? AUTO_FORGE_SETTLE_MS;
  const pending = new Map<string, Pending>();
  const listeners = new Set<(note: AutoForgeNote) => void>();
  let closed = false;
  const told = (note: AutoForgeNote): void => {
    for (const listener of listeners) listener(note);
  };

  const latestBuild = (project: string): Build | undefined => repo.list({ project, limit: 1 })[0];
  const kindOf = (project: string) =>
    repo.list({ project, limit: 10 }).find((b) => b.blueprint)?.blueprint?.kind ?? null;

  function clearPending(): void {
    for (const entry of pending.values()) if (entry.timer) clearTimeout(entry.timer);
    pending.clear();
  }

  function arm(project: string, entry: Pending): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void fire(project), settleMs);
    entry.timer.unref();
  }

  async function fire(project: string): Promise<void> {
    const entry = pending.get(project);
    if (!entry || closed) return;
    if (!isActive()) return void pending.delete(project);
    const latest = latestBuild(project);
    // Never start one while a build of it runs (that would cancel it): look again once it is over.
    if (latest && isRunning(latest)) return arm(project, entry);
    pending.delete(project);
    // A build that started after the last change (an upload, Start Build) already has these changes.
    if (latest && Date.parse(latest.createdAt) >= entry.lastChangeAt) return;
    const how = entry.origins.has('api') ? 'saved in Forge' : 'changed on disk';
    const why = `Auto-Forge: rebuilding ${project} because ${listPaths(entry.paths)} ${entry.paths.size === 1 ? 'was' : 'were'} ${how}.`;
    try {
      await deps.fleet.run('WatchBot', { label: `auto-forge ${project}`, projectName: project }, async () => {
        const build = await deps.builds.startBuild(project, { noCache: false });
        const run = deps.builds.running(build.id);
        if (run) run.log('WatchBot', 'info', why);
        else
          deps.broadcast({
            type: 'log',
            botName: 'WatchBot',
            level: 'info',
            message: why,
            projectName: project,
            buildId: build.id,
            timestamp: new Date().toISOString(),
          });
        logger.info(
          { project, buildId: build.id, paths: [...entry.paths].slice(0, 20) },
          'auto-forge rebuild',
        );
      });
    } catch (err) {
      logger.warn({ err, project }, 'auto-forge could not start a rebuild');
    }
  }

  function isActive(): boolean {
    return flags.boolean(FLAG, DEFAULT_ACTIVE);
  }

  return {
    isActive,

    setActive(active: boolean): boolean {
      flags.set(FLAG, active);
      if (!active) clearPending();
      logger.info({ active }, 'auto-forge toggled');
      return active;
    },

    /** A project's files changed (WatchBot for disk changes, the file API for the editor's). */
    noteChange(project: string, paths: string[], origin: ChangeOrigin, at: number = Date.now()): void {
      if (closed || paths.length === 0) return;
      const note = (outcome: AutoForgeNote['outcome']) => told({ project, paths, origin, outcome });
      if (!isActive()) return note('off');
      const latest = latestBuild(project);
      if (!latest) return note('never-built'); // Start Build is the first build, not a file save
      if (origin === 'disk') {
        // The build's own writes (or an upload's extraction): seen while it ran, or just as it ended.
        if (isRunning(latest)) return note('build-own');
        if (latest.endedAt && at <= Date.parse(latest.endedAt) + BUILD_EVENT_SLACK_MS)
          return note('build-own');
        // A running server app may write into its own folder (data, logs): only editor saves count,
        // or every write would restart it, forever.
        if (kindOf(project) === 'server') return note('server-app');
      }
      let entry = pending.get(project);
      if (!entry) {
        entry = { paths: new Set(), origins: new Set(), lastChangeAt: 0, timer: null };
        pending.set(project, entry);
      }
      for (const p of paths) entry.paths.add(p);
      entry.origins.add(origin);
      entry.lastChangeAt = Math.max(entry.lastChangeAt, at);
      arm(project, entry);
      note('pending');
    },

    /**
     * Calls `listener` with what auto-forge made of each change it is told about, as it decides:
     * "nothing to do" is an event too, so a caller need not wait out the settle time to know it.
     */
    onNote(listener: (note: AutoForgeNote) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    close(): void {
      closed = true;
      clearPending();
    },
  };
}

export type AutoForge = ReturnType<typeof createAutoForge>;
