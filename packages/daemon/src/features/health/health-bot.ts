import { statfs as fsStatfs } from 'node:fs/promises';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { Fleet } from '../../engine/fleet/fleet.ts';
import type { HomeLayout } from '../../home-layout.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Store } from '../../store/store.ts';
import type { BuildRepo } from '../../engine/build-repo.ts';
import type { PreviewRegistry } from '../../capabilities/preview/preview-registry.ts';

/**
 * HealthBot: every minute, a look at what keeps Forge working — the daemon itself (is its event loop
 * answering, how much memory it holds), the disk FORGE_HOME is on, every running preview, and the
 * store. Each round is a HealthBot job of the fleet, so its card says what it last found; the last
 * report feeds /api/forge/status; a check that starts failing (or fails differently, or recovers) is
 * logged once, not every minute.
 */

export const HEALTH_INTERVAL_MS = 60_000;
/** A preview that does not answer a GET within this is reported. */
export const PREVIEW_ANSWER_MS = 2_000;
/** Disk space under either bound is low. */
export const DISK_LOW_BYTES = 1024 ** 3;
export const DISK_LOW_RATIO = 0.05;
/** The event loop's 99th percentile delay over a round above this means the daemon is not answering promptly. */
export const EVENT_LOOP_SLOW_MS = 1_000;
/** Resident memory above this is reported. */
export const RSS_HIGH_BYTES = 2 * 1024 ** 3;

export type HealthCheckName = 'daemon' | 'disk' | 'previews' | 'store';

export interface HealthCheck {
  name: HealthCheckName;
  ok: boolean;
  /** One line: "disk: 12.3 GB free of 50 GB", "disk low: 800 MB free". */
  summary: string;
  /**
   * What is wrong, stably worded (no changing numbers), so a failing check is logged once per
   * change, not every round; null when it passes.
   */
  problem: string | null;
}

export interface HealthReport {
  /** When the round ended (ISO-8601). */
  at: string;
  ok: boolean;
  /** "all checks passed", or the failing checks' summaries. */
  summary: string;
  checks: HealthCheck[];
  durationMs: number;
}

export interface DiskSpace {
  /** Bytes free for an unprivileged writer. */
  free: number;
  total: number;
}

export interface HealthBotDeps {
  fleet: Pick<Fleet, 'run'>;
  previews: Pick<PreviewRegistry, 'get'>;
  repo: Pick<BuildRepo, 'projects'>;
  layout: Pick<HomeLayout, 'home'>;
  store: Pick<Store, 'db'>;
  logger: Pick<Logger, 'warn' | 'info'>;
  intervalMs?: number;
  previewAnswerMs?: number;
  /** Free and total bytes of the file system holding `dir` (default: fs.statfs). */
  diskSpace?: (dir: string) => Promise<DiskSpace>;
}

export interface HealthBot {
  /** Check every interval from now on (the first round after one interval); the timer never keeps the process alive. */
  start(): void;
  /** Stop the rounds; resolves once a round in flight has ended. */
  stop(): Promise<void>;
  /** Run a round now (as a HealthBot job) and keep its report. */
  check(): Promise<HealthReport>;
  /** The last round's report, or null before the first. */
  last(): HealthReport | null;
}

const GB = 1024 ** 3;
const MB = 1024 ** 2;

/** "12.3 GB", "800 MB": disk and memory sizes as the status text shows them. */
export function formatSize(bytes: number): string {
  if (bytes >= GB) return `${(bytes / GB).toFixed(1)} GB`;
  return `${Math.round(bytes / MB)} MB`;
}

const defaultDiskSpace = async (dir: string): Promise<DiskSpace> => {
  const s = await fsStatfs(dir);
  return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
};

/** Whether anything answers an HTTP GET at `url` within `ms` (any status: the server is alive). */
async function answers(url: string, ms: number): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(ms), redirect: 'manual' });
    await res.body?.cancel().catch(() => {});
    return true;
  } catch {
    return false;
  }
}

export function createHealthBot(deps: HealthBotDeps): HealthBot {
  const intervalMs = deps.intervalMs ?? HEALTH_INTERVAL_MS;
  const previewAnswerMs = deps.previewAnswerMs ?? PREVIEW_ANSWER_MS;
  const diskSpace = deps.diskSpace ?? defaultDiskSpace;
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  let last: HealthReport | null = null;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<HealthReport> | null = null;
  /** The problem each check last reported, to log a change once. */
  const problems = new Map<HealthCheckName, string | null>();

  async function daemonCheck(): Promise<HealthCheck> {
    // Before the first round, the histogram has seen nothing: the delay reads as 0.
    const p99 = loopDelay.count > 0 ? loopDelay.percentile(99) / 1e6 : 0;
    loopDelay.reset();
    const rss = process.memoryUsage.rss();
    const slow = p99 > EVENT_LOOP_SLOW_MS;
    const heavy = rss > RSS_HIGH_BYTES;
    const facts = `event loop p99 ${Math.round(p99)} ms, memory ${formatSize(rss)}`;
    return {
      name: 'daemon',
      ok: !slow && !heavy,
      summary: slow || heavy ? `daemon ${slow ? 'slow' : 'heavy'}: ${facts}` : `daemon: ${facts}`,
      problem: slow ? 'event loop slow' : heavy ? 'memory high' : null,
    };
  }

  async function diskCheck(): Promise<HealthCheck> {
    try {
      const { free, total } = await diskSpace(deps.layout.home);
      const low = free < DISK_LOW_BYTES || (total > 0 && free / total < DISK_LOW_RATIO);
      const percent = total > 0 ? ` (${Math.round((free / total) * 100)}%)` : '';
      return low
        ? { name: 'disk', ok: false, summary: `disk low: ${formatSize(free)} free${percent}`, problem: 'low' }
        : {
            name: 'disk',
            ok: true,
            summary: `disk: ${formatSize(free)} free of ${formatSize(total)}${percent}`,
            problem: null,
          };
    } catch (error) {
      const message = (error as Error).message;
      return {
        name: 'disk',
        ok: false,
        summary: `disk: cannot read free space (${message})`,
        problem: 'unreadable',
      };
    }
  }

  async function previewsCheck(): Promise<HealthCheck> {
    const running = deps.repo
      .projects()
      .map(({ name }) => ({ name, preview: deps.previews.get(name) }))
      .filter((p): p is { name: string; preview: NonNullable<typeof p.preview> } => p.preview !== null);
    if (running.length === 0)
      return { name: 'previews', ok: true, summary: 'previews: none running', problem: null };
    const results = await Promise.all(
      running.map(async (p) => ({ ...p, ok: await answers(p.preview.url, previewAnswerMs) })),
    );
    const silent = results.filter((r) => !r.ok);
    if (silent.length === 0) {
      return {
        name: 'previews',
        ok: true,
        summary: `previews: ${running.length === 1 ? 'the running one answers' : `all ${running.length} answer`}`,
        problem: null,
      };
    }
    const names = silent.map((r) => `${r.name} (${r.preview.url})`).join(', ');
    return {
      name: 'previews',
      ok: false,
      summary: `preview${silent.length === 1 ? '' : 's'} not answering within ${previewAnswerMs / 1000} s: ${names}`,
      problem: `not answering: ${silent
        .map((r) => r.name)
        .sort()
        .join(', ')}`,
    };
  }

  function storeCheck(): HealthCheck {
    try {
      const result: unknown = deps.store.db.pragma('quick_check', { simple: true });
      if (result === 'ok') return { name: 'store', ok: true, summary: 'store: ok', problem: null };
      return {
        name: 'store',
        ok: false,
        summary: `store damaged: quick_check says ${String(result)}`,
        problem: 'damaged',
      };
    } catch (error) {
      const message = (error as Error).message;
      return { name: 'store', ok: false, summary: `store unreadable: ${message}`, problem: `unreadable` };
    }
  }

  async function round(): Promise<HealthReport> {
    const started = performance.now();
    const checks = await Promise.all([
      daemonCheck(),
      diskCheck(),
      previewsCheck(),
      Promise.resolve(storeCheck()),
    ]);
    const failing = checks.filter((c) => !c.ok);
    const report: HealthReport = {
      at: new Date().toISOString(),
      ok: failing.length === 0,
      summary: failing.length === 0 ? 'all checks passed' : failing.map((c) => c.summary).join('; '),
      checks,
      durationMs: Math.round(performance.now() - started),
    };
    for (const check of checks) {
      const before = problems.get(check.name) ?? null;
      if (before === check.problem) continue;
      problems.set(check.name, check.problem);
      if (check.problem !== null) deps.logger.warn({ check: check.name }, `HealthBot: ${check.summary}`);
      else if (before !== null)
        deps.logger.info({ check: check.name }, `HealthBot: ${check.name} is healthy again`);
    }
    last = report;
    return report;
  }

  function check(): Promise<HealthReport> {
    // Rounds never overlap: a caller during a round gets that round's report.
    inFlight ??= deps.fleet
      .run('HealthBot', { label: 'health check' }, round, {
        slot: false,
        summary: (r) => r.summary,
        failed: (r) => !r.ok,
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  }

  function schedule(): void {
    timer = setTimeout(() => {
      void check()
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'HealthBot: a health check crashed'))
        .finally(() => {
          if (timer) schedule();
        });
    }, intervalMs);
    timer.unref();
  }

  return {
    start() {
      if (timer) return;
      loopDelay.enable();
      schedule();
    },
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      loopDelay.disable();
      await inFlight?.catch(() => undefined);
    },
    check,
    last: () => last,
  };
}
