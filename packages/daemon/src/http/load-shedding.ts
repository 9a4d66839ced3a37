import type { Request, RequestHandler } from 'express';
import type { Logger } from '../logging/logger.ts';
import { ForgeError } from './forge-error.ts';

/**
 * Requests under way at once above which new /api requests are refused. A single-user daemon's web
 * app keeps about ten in flight; measured on a busy 2-core machine, 400 autocannon connections on
 * the file API peak near 400 in flight while every answer still comes back within a second, so the
 * cap only bites on a flood, never on normal use (or the test suite).
 */
export const MAX_IN_FLIGHT_REQUESTS = 256;
/** Event-loop delay above which the daemon counts as behind. */
export const MAX_EVENT_LOOP_LAG_MS = 1_000;
/**
 * How many lag samples in a row must be late before requests are shed: one long synchronous task
 * (an extraction, a big JSON) delays a single sample; a daemon that is truly behind delays them all.
 */
export const LATE_SAMPLES_TO_SHED = 3;
const SAMPLE_EVERY_MS = 200;
/** Shedding is logged at most this often (a flood must not turn into a flood of log lines). */
const LOG_EVERY_MS = 5_000;
/** What the 503 OVERLOADED answer asks the client to wait. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

export interface LoadSheddingOptions {
  logger?: Logger;
  maxInFlight?: number;
  maxLagMs?: number;
  retryAfterSeconds?: number;
  /** Requests always admitted (and not counted): by default GET /api/health, so liveness still answers. */
  exempt?: (req: Request) => boolean;
}

export interface LoadShedding extends RequestHandler {
  /** Requests admitted and not yet answered (or aborted). */
  readonly inFlight: number;
  /** Requests refused with 503 OVERLOADED so far. */
  readonly shed: number;
}

/**
 * The event loop's delay, sampled by one process-wide timer (the loop is the process's, however
 * many apps run in it). Started on first use, unref'd: it never keeps a process alive.
 */
const loop = {
  /** The last LATE_SAMPLES_TO_SHED delays, newest last. */
  recentLagMs: [] as number[],
  timer: undefined as ReturnType<typeof setInterval> | undefined,
};

function watchEventLoop(): void {
  if (loop.timer) return;
  let expected = performance.now() + SAMPLE_EVERY_MS;
  loop.timer = setInterval(() => {
    const now = performance.now();
    loop.recentLagMs.push(Math.max(0, now - expected));
    if (loop.recentLagMs.length > LATE_SAMPLES_TO_SHED) loop.recentLagMs.shift();
    expected = now + SAMPLE_EVERY_MS;
  }, SAMPLE_EVERY_MS);
  loop.timer.unref();
}

/** The event loop's delay of the last sample (ms); 0 before the first. */
export const eventLoopLagMs = (): number => loop.recentLagMs.at(-1) ?? 0;

const loopBehind = (maxLagMs: number): boolean =>
  loop.recentLagMs.length === LATE_SAMPLES_TO_SHED && loop.recentLagMs.every((lag) => lag > maxLagMs);

const isHealth = (req: Request): boolean =>
  (req.method === 'GET' || req.method === 'HEAD') && req.originalUrl.split('?')[0] === '/api/health';

/**
 * Load shedding for the API: a request that would make the daemon hold more than `maxInFlight`
 * requests at once, or that arrives while the event loop has been late for several samples in a
 * row, is answered at once with 503 OVERLOADED and `Retry-After`, before its body is read or any
 * work is done, so a flood degrades into quick refusals instead of slow answers for everyone and
 * unbounded memory. /api/health is exempt: it must answer for as long as the process lives.
 */
export function loadShedding(options: LoadSheddingOptions = {}): LoadShedding {
  const maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT_REQUESTS;
  const maxLagMs = options.maxLagMs ?? MAX_EVENT_LOOP_LAG_MS;
  const retryAfter = String(options.retryAfterSeconds ?? OVERLOADED_RETRY_AFTER_SECONDS);
  const exempt = options.exempt ?? isHealth;
  watchEventLoop();
  let inFlight = 0;
  let shed = 0;
  let shedSinceLog = 0;
  let loggedAt = -Infinity;

  const handler: RequestHandler = (req, res, next) => {
    if (exempt(req)) return next();
    const behind = loopBehind(maxLagMs);
    if (inFlight >= maxInFlight || behind) {
      shed++;
      shedSinceLog++;
      const reason = behind ? 'event-loop-lag' : 'too-many-requests';
      const now = performance.now();
      if (now - loggedAt >= LOG_EVERY_MS) {
        options.logger?.warn({ shed: shedSinceLog, inFlight, reason }, 'overloaded: refusing requests');
        loggedAt = now;
        shedSinceLog = 0;
      }
      // Answered here, not through the error middleware: a refusal must stay cheaper than the work.
      const error = new ForgeError('OVERLOADED', undefined, {
        reason,
        retryAfterSeconds: Number(retryAfter),
      });
      res.setHeader('Retry-After', retryAfter);
      res.status(error.status).json(error.toBody());
      return;
    }
    inFlight++;
    // 'close' fires once the answer is sent or the client went away, whichever comes first.
    res.once('close', () => inFlight--);
    next();
  };
  return Object.defineProperties(handler, {
    inFlight: { get: () => inFlight },
    shed: { get: () => shed },
  }) as LoadShedding;
}
