import fs from 'node:fs';
import path from 'node:path';
import { DAEMON_LOG_FILE, LOG_DIR } from '@forge/shared';
import type { Fleet } from '../../engine/fleet/fleet.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { INSTALL_KEY_FILE, installKey, readInstallKey } from '../../engine/install-cache.ts';
import { sourceHash } from '../../engine/source-hash.ts';
import { projectAsked } from '../projects/projects.ts';
import type { CoreServices, FeatureHandle } from '../services.ts';

type Services = Pick<CoreServices, 'repo' | 'layout' | 'logger' | 'builds'>;

/**
 * CacheBot's Build: every stored output is checked against the source it was built from (fresh,
 * stale or missing; a stale one stays, it is the last success that is served and downloaded), and
 * every install kept aside between uploads whose key no longer matches the project is evicted: it
 * could never be reused, it only takes disk.
 */
export async function verifyCaches(services: Services): Promise<string> {
  const { repo, layout } = services;
  let fresh = 0;
  let stale = 0;
  let missing = 0;
  let evicted = 0;
  for (const project of repo.projects()) {
    const output = repo.project(project.name)?.output;
    const made = output?.buildId ? repo.get(output.buildId) : null;
    const bp = made?.blueprint ?? null;
    if (output) {
      if (!fs.existsSync(layout.outputDir(project.name))) missing++;
      else if (bp && (await sourceHash(layout.projectDir(project.name), bp)) === output.hash) fresh++;
      else stale++;
    }
    const kept = path.join(layout.depsDir(project.name), 'node_modules');
    const keptKey = await readInstallKey(kept);
    if (keptKey === null) continue;
    const latestBp = repo.list({ project: project.name, limit: 1 })[0]?.blueprint ?? bp;
    const want = latestBp
      ? await installKey(path.join(layout.projectDir(project.name), latestBp.installDir), latestBp).catch(
          () => null,
        )
      : null;
    if (want !== keptKey) {
      fs.rmSync(layout.depsDir(project.name), { recursive: true, force: true });
      evicted++;
    }
  }
  const outputs = fresh + stale + missing;
  return (
    `Verified ${outputs} stored output${outputs === 1 ? '' : 's'}: ${fresh} fresh, ${stale} stale, ${missing} missing; ` +
    `evicted ${evicted} stale install${evicted === 1 ? '' : 's'}.`
  );
}

/** CacheBot's Fix: the current project's installs are forgotten, so its next build installs afresh. */
export function evictProjectCache(services: Services, project: string | undefined): string {
  const name = projectAsked(services, project);
  if (!name) throw new ForgeError('PROJECT_NOT_FOUND', 'No project has been uploaded yet.');
  const { layout } = services;
  const removed: string[] = [];
  const kept = layout.depsDir(name);
  if (fs.existsSync(kept)) {
    fs.rmSync(kept, { recursive: true, force: true });
    removed.push('the install kept aside');
  }
  // Without its key, node_modules is never taken for a match: the next build installs again.
  for (const bp of [services.repo.list({ project: name, limit: 1 })[0]?.blueprint].filter(Boolean)) {
    const keyFile = path.join(layout.projectDir(name), bp!.installDir, 'node_modules', INSTALL_KEY_FILE);
    if (fs.existsSync(keyFile)) {
      fs.rmSync(keyFile, { force: true });
      removed.push("node_modules' install key");
    }
  }
  return removed.length
    ? `Evicted ${removed.join(' and ')} of ${name}: its next build installs afresh.`
    : `${name} has no cached install: its next build installs afresh.`;
}

const formatBytes = (n: number): string =>
  n < 1024
    ? `${n} B`
    : n < 1024 * 1024
      ? `${Math.round(n / 1024)} KB`
      : `${Math.round(n / (1024 * 1024))} MB`;

/** How LogBot rotates: the defaults, and what FORGE_LOG_* set (tests drive the schedule with them). */
export interface LogRotation {
  /** Every how many ms the job runs; 0 turns the schedule off. */
  intervalMs: number;
  /** daemon.log is rotated past this size. */
  maxDaemonLogBytes: number;
  /** Rotated daemon logs kept (daemon.log.1 … .N). */
  keepDaemonLogs: number;
  /** The newest builds of each project whose log stays in the store; older ones go to files. */
  keepBuildLogs: number;
}

export const logRotationFromEnv = (env: NodeJS.ProcessEnv = process.env): LogRotation => {
  const num = (v: string | undefined, d: number) => {
    const n = Number(v);
    return v !== undefined && v !== '' && Number.isFinite(n) && n >= 0 ? n : d;
  };
  return {
    intervalMs: num(env.FORGE_LOG_ROTATE_MS, 60 * 60 * 1000),
    maxDaemonLogBytes: num(env.FORGE_LOG_MAX_BYTES, 10 * 1024 * 1024),
    keepDaemonLogs: Math.max(1, num(env.FORGE_LOG_KEEP_FILES, 3)),
    keepBuildLogs: Math.max(1, num(env.FORGE_LOG_KEEP_BUILDS, 20)),
  };
};

/**
 * LogBot's job. daemon.log past its size is copied to daemon.log.1 (older generations shift, the
 * oldest is dropped) and truncated in place: the logger appends, so it writes on at the start
 * without being reopened. The log lines of builds older than the newest `keepBuildLogs` of their
 * project are moved to logs/builds/<id>.log (BuildRepo.archiveLogs), where every reader of a
 * build's log still finds them, and the store stops growing. A build still running and the newest
 * finished build of each project are never moved.
 */
export async function rotateLogs(services: Services, opts: LogRotation): Promise<string> {
  const logDir = path.join(services.layout.home, LOG_DIR);
  const parts: string[] = [];
  const daemonLog = path.join(logDir, DAEMON_LOG_FILE);
  const size = fs.existsSync(daemonLog) ? fs.statSync(daemonLog).size : 0;
  if (size > opts.maxDaemonLogBytes) {
    for (let i = opts.keepDaemonLogs - 1; i >= 1; i--) {
      const from = `${daemonLog}.${i}`;
      if (fs.existsSync(from)) fs.renameSync(from, `${daemonLog}.${i + 1}`);
    }
    fs.rmSync(`${daemonLog}.${opts.keepDaemonLogs + 1}`, { force: true });
    fs.copyFileSync(daemonLog, `${daemonLog}.1`);
    fs.truncateSync(daemonLog, 0);
    parts.push(`rotated ${DAEMON_LOG_FILE} (${formatBytes(size)})`);
  } else {
    parts.push(`${DAEMON_LOG_FILE} is ${formatBytes(size)}, under ${formatBytes(opts.maxDaemonLogBytes)}`);
  }

  let lineCount = 0;
  let moved = 0;
  for (const id of services.repo.buildsToArchive(opts.keepBuildLogs)) {
    // The store says finished; a run still held in memory (its last lines in flight) waits a turn.
    if (services.builds.running(id)) continue;
    lineCount += await services.repo.archiveLogs(id);
    moved++;
  }
  parts.push(
    moved
      ? `exported ${moved} old build log${moved === 1 ? '' : 's'} (${lineCount} lines) to ${LOG_DIR}/builds`
      : 'no old build log to export',
  );
  return `LogBot: ${parts.join('; ')}.`;
}

/** LogBot's job as a job of its bot (its card says what it last did), pressed or scheduled. */
export const runLogBot = (
  services: Services & { fleet: Fleet },
  rotation: LogRotation,
  label: string,
): Promise<string> =>
  services.fleet.run('LogBot', { label }, () => rotateLogs(services, rotation), {
    slot: false,
    summary: (s) => s,
  });

/** LogBot's recurring job: the logs are rotated on a schedule, not only when its card is pressed. */
export function scheduleLogRotation(
  services: Services & { fleet: Fleet },
  rotation: LogRotation,
): FeatureHandle {
  if (rotation.intervalMs <= 0) return {};
  const timer = setInterval(() => {
    runLogBot(services, rotation, 'scheduled log rotation').catch((err: unknown) =>
      services.logger.warn({ err }, 'scheduled log rotation failed'),
    );
  }, rotation.intervalMs);
  timer.unref();
  return { close: () => clearInterval(timer) };
}
