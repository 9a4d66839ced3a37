import { Redis } from 'ioredis';
import { redactQueueUrl } from '../../config/load-config.ts';

/** BullMQ's names for Forge's build jobs on Redis: keys `forge:builds:*`. */
export const QUEUE_NAME = 'builds';
export const QUEUE_PREFIX = 'forge';
/**
 * A worker's lock on a job lasts this long and is renewed at half of it. A worker killed mid-build
 * stops renewing: within about this long (plus the stalled-check interval) BullMQ moves its job
 * back to the queue once (maxStalledCount 1), and another worker runs it again.
 */
export const LOCK_DURATION_MS = 15_000;
export const STALLED_INTERVAL_MS = 5_000;

/**
 * A connection to the queue's Redis. `maxRetriesPerRequest: null` is what BullMQ's blocking calls
 * need; reconnects back off to 2 s, so a Redis restart is ridden out instead of failing builds.
 */
export function connectRedis(url: string, name: string): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: null,
    connectionName: name,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    lazyConnect: true,
  });
}

/**
 * `promise`, or a rejection with `message` after `ms`: a call to Redis waits for a reconnect forever
 * (maxRetriesPerRequest null), and some callers must not.
 */
export async function answerWithin<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Connect, or fail with a sentence naming the URL (password hidden) and the reason. */
export async function openRedis(url: string, name: string, timeoutMs = 5_000): Promise<Redis> {
  const redis = connectRedis(url, name);
  // Failures surface as the rejection below; ioredis would also print each one as "Unhandled error event".
  redis.on('error', () => {});
  try {
    await answerWithin(redis.connect(), timeoutMs, `no answer within ${timeoutMs} ms`);
    await redis.ping();
    return redis;
  } catch (err) {
    redis.disconnect();
    throw new Error(
      `Cannot reach the build queue's Redis at ${redactQueueUrl(url)}: ${(err as Error).message}`,
    );
  }
}

/**
 * Redis must keep every key it holds: with any eviction policy but `noeviction` it may silently drop
 * queued jobs (or a job's lock) under memory pressure. Returns the sentence to show when it would,
 * or null when it is set right (or the server does not say).
 */
export async function evictionWarning(redis: Redis): Promise<string | null> {
  let policy: string | null = null;
  try {
    const info = await redis.info('memory');
    policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1] ?? null;
  } catch {
    return null;
  }
  if (policy === null || policy === 'noeviction') return null;
  return (
    `Redis runs with maxmemory-policy ${policy}: under memory pressure it may drop queued build jobs. ` +
    'Set "maxmemory-policy noeviction" in redis.conf (or CONFIG SET maxmemory-policy noeviction).'
  );
}
