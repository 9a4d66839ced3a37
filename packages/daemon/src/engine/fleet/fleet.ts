import {
  BOT_CATEGORIES,
  BOT_ROSTER,
  type BotActivity,
  type BotInfo,
  type ServerMessage,
  type Settings,
} from '@forge/shared';
import { createSlots } from './slots.ts';

/**
 * How many jobs run at once across the fleet, and how many builds: with bot orchestration on,
 * independent bots work in parallel up to maxConcurrentBots; off, one job at a time, in order.
 */
export const concurrencyOf = (settings: Pick<Settings, 'botOrchestration' | 'maxConcurrentBots'>): number =>
  settings.botOrchestration ? Math.max(1, settings.maxConcurrentBots) : 1;

/** What a job is about, for the bot card ("build app#b3") and the bot-assigned message. */
export interface JobInfo {
  label: string;
  projectName?: string;
  buildId?: string;
}

export interface FleetDeps {
  broadcast: (message: ServerMessage) => void;
  /** Read at every acquire, so a settings change applies to the next job. */
  maxConcurrent: () => number;
}

interface BotState {
  /** Jobs in flight: this daemon's by number, a worker's (scale-out) by "<buildId>:<step>". */
  running: Map<number | string, JobInfo>;
  jobsRun: number;
  failures: number;
  /** The last job that failed, kept for "Fix" (retry). Cleared by a later success. */
  lastFailure: JobInfo | null;
  /** What it last did, for its card. */
  lastJob: BotInfo['lastJob'];
}

/**
 * Bots that cannot take a job yet: shown `standby`, never `active`. None any more: with the platform
 * issue every bot of the 25 has its work (AuthBot guards the university).
 */
export const STANDBY_BOTS: ReadonlySet<string> = new Set<string>();

/**
 * The 25 bots and the scheduler. Every pipeline step is a job run by one named bot; at most
 * `maxConcurrent()` jobs run at once across the fleet, the rest wait in FIFO order.
 */
export function createFleet({ broadcast, maxConcurrent }: FleetDeps) {
  const bots = new Map<string, BotState>(
    BOT_ROSTER.map((b) => [
      b.name,
      { running: new Map(), jobsRun: 0, failures: 0, lastFailure: null, lastJob: null },
    ]),
  );
  const slots = createSlots(maxConcurrent);
  let nextJobId = 1;

  const statusOf = (name: string, state: BotState): string =>
    state.running.size > 0
      ? 'building'
      : state.lastFailure
        ? 'error'
        : STANDBY_BOTS.has(name)
          ? 'standby'
          : 'active';
  const jobText = (state: BotState): string | null =>
    state.running.size === 0 ? null : [...state.running.values()].map((j) => j.label).join(', ');

  const emit = (name: string) => {
    const state = bots.get(name)!;
    broadcast({ type: 'bot-status', botName: name, status: statusOf(name, state), job: jobText(state) });
  };

  return {
    /**
     * Run `fn` as a job of `botName` once a slot is free. `failed(result)` decides whether a resolved
     * result counts as a failure (a build that exits 1 resolves, but the bot failed its job);
     * `summary(result)` is what its card says it last did. `slot: false` runs at once without a
     * build slot: the light answers of the assistants (chat, memory, status) never wait behind a
     * build's steps.
     */
    async run<T>(
      botName: string,
      job: JobInfo,
      fn: () => Promise<T>,
      opts: {
        signal?: AbortSignal;
        failed?: (result: T) => boolean;
        summary?: (result: T) => string | null;
        slot?: boolean;
      } = {},
    ): Promise<T> {
      const state = bots.get(botName);
      if (!state) throw new Error(`Unknown bot ${botName}`);
      const slot = opts.slot ?? true;
      const release = slot ? await slots.acquire(opts.signal) : undefined;
      const id = nextJobId++;
      state.running.set(id, job);
      emit(botName);
      // The Live Development viewer shows who works on a build; an assistant's answer is not one.
      if (job.projectName || job.buildId) {
        broadcast({
          type: 'bot-assigned',
          botName,
          ...(job.projectName ? { projectName: job.projectName } : {}),
          ...(job.buildId ? { buildId: job.buildId } : {}),
        });
      }
      let ok = false;
      let summary: string | null = null;
      try {
        const result = await fn();
        ok = !(opts.failed?.(result) ?? false);
        try {
          summary = opts.summary?.(result) ?? null;
        } catch {
          summary = null;
        }
        return result;
      } catch (err) {
        summary = err instanceof Error ? err.message : String(err);
        throw err;
      } finally {
        state.running.delete(id);
        state.jobsRun++;
        state.lastJob = { label: job.label, ok, at: new Date().toISOString(), summary };
        if (ok) state.lastFailure = null;
        else {
          state.failures++;
          state.lastFailure = job;
        }
        release?.();
        emit(botName);
      }
    },
    /**
     * Scale-out: a step a `forge worker` runs for this bot, as the build record it reports shows it.
     * The bot's card shows it running and then counts it like its own job; no slot is taken here
     * (the worker has its own). `finish(null)` only clears a job that will not report its end.
     */
    remote(botName: string, key: string) {
      const state = bots.get(botName);
      return {
        start(job: JobInfo): void {
          if (!state || state.running.has(key)) return;
          state.running.set(key, job);
          emit(botName);
        },
        finish(outcome: { ok: boolean; summary: string | null } | null): void {
          const job = state?.running.get(key);
          if (!state || !job) return;
          state.running.delete(key);
          if (outcome) {
            state.jobsRun++;
            state.lastJob = {
              label: job.label,
              ok: outcome.ok,
              at: new Date().toISOString(),
              summary: outcome.summary,
            };
            if (outcome.ok) state.lastFailure = null;
            else {
              state.failures++;
              state.lastFailure = job;
            }
          }
          emit(botName);
        },
      };
    },
    list(): BotInfo[] {
      return BOT_ROSTER.map((b) => {
        const state = bots.get(b.name)!;
        return {
          name: b.name,
          category: b.category,
          description: b.description,
          status: statusOf(b.name, state),
          currentJob: jobText(state),
          jobsRun: state.jobsRun,
          failures: state.failures,
          lastJob: state.lastJob,
        };
      });
    },
    /**
     * Nav "Bot Activity" (docs/product.md#routes-and-navigation): one row per category. count = bots of the
     * category that are online (not in error); status online when all are idle or working fine, pending while
     * any is building, error when any failed its last job.
     */
    activities(): BotActivity[] {
      return BOT_CATEGORIES.map((category) => {
        const states = BOT_ROSTER.filter((b) => b.category === category).map((b) =>
          statusOf(b.name, bots.get(b.name)!),
        );
        const status = states.includes('error')
          ? 'error'
          : states.includes('building')
            ? 'pending'
            : 'online';
        return { type: category, count: states.filter((s) => s !== 'error').length, status };
      });
    },
    lastFailure(botName: string): JobInfo | null {
      return bots.get(botName)?.lastFailure ?? null;
    },
    get activeJobs(): number {
      return slots.running;
    },
    get queuedJobs(): number {
      return slots.waiting;
    },
  };
}

export type Fleet = ReturnType<typeof createFleet>;
