import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** How often a process waiting for another process's lock looks again. */
const POLL_MS = 200;
/** A lock folder with no owner written after this long was left by a process that died mid-acquire. */
const ORPHAN_MS = 30_000;

/** Tails of the in-process queues, by key: builds of this daemon wait on a promise, never poll. */
const queues = new Map<string, Promise<void>>();

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Whether the lock folder was left by a process that is gone (or by this one, which holds no such lock). */
async function isStale(lockDir: string): Promise<boolean> {
  const owner = Number(await fs.readFile(path.join(lockDir, 'pid'), 'utf8').catch(() => ''));
  if (owner > 0) return owner === process.pid || !isAlive(owner);
  const since = await fs.stat(lockDir).then(
    (st) => Date.now() - st.mtimeMs,
    () => 0,
  );
  return since > ORPHAN_MS;
}

/** Take the lock folder (mkdir is atomic), waiting while a live process holds it. */
async function acquireDir(lockDir: string, signal?: AbortSignal): Promise<void> {
  await fs.mkdir(path.dirname(lockDir), { recursive: true });
  for (;;) {
    signal?.throwIfAborted();
    try {
      await fs.mkdir(lockDir);
      await fs.writeFile(path.join(lockDir, 'pid'), String(process.pid));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (await isStale(lockDir)) {
      await fs.rm(lockDir, { recursive: true, force: true });
      continue;
    }
    await delay(POLL_MS, undefined, signal ? { signal } : {});
  }
}

const waitFor = (previous: Promise<void>, signal?: AbortSignal): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => reject(signal!.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    void previous.then(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
  });

/**
 * Run `fn` holding the lock `key`: one holder at a time among this daemon's builds (a queue) and among
 * processes sharing the folder (`<locksDir>/<key>.lock`, taken by mkdir, owned by a pid and taken over
 * when that process is gone). Waiting ends early when `signal` aborts (rejecting with its reason).
 */
export async function withToolLock<T>(
  locksDir: string,
  key: string,
  fn: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  queues.set(key, tail);
  const lockDir = path.join(locksDir, `${key.replace(/[^A-Za-z0-9._-]/g, '+')}.lock`);
  let held = false;
  try {
    await waitFor(previous, signal);
    await acquireDir(lockDir, signal);
    held = true;
    return await fn();
  } finally {
    if (held) await fs.rm(lockDir, { recursive: true, force: true }).catch(() => {});
    release();
    if (queues.get(key) === tail) queues.delete(key);
  }
}
