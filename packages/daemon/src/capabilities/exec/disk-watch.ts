/**
 * The cap on bytes a command writes to disk in total (RLIMIT_FSIZE only caps each file). Cheap by
 * design: every second one statfs(2) of the command's folder tells how much the disk lost since the
 * command started. Only when that passes the cap are the command's folders walked, to count what it
 * wrote itself (files modified since it started), so another build filling the same disk does not
 * stop this one.
 */
import { lstat, readdir, statfs } from 'node:fs/promises';
import { join } from 'node:path';

/** How often the free space is read. */
export const DISK_WATCH_INTERVAL_MS = 1_000;
/** A confirming walk stops counting after this many entries (a huge node_modules is not re-read). */
const WALK_MAX_ENTRIES = 200_000;

async function freeBytes(dir: string): Promise<number | undefined> {
  try {
    const info = await statfs(dir);
    return info.bavail * info.bsize;
  } catch {
    return undefined;
  }
}

/** Bytes of the regular files under `dirs` modified at or after `sinceMs` (links not followed). */
export async function bytesWrittenSince(dirs: readonly string[], sinceMs: number): Promise<number> {
  let total = 0;
  let entries = 0;
  const stack = [...dirs];
  while (stack.length > 0 && entries < WALK_MAX_ENTRIES) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (++entries > WALK_MAX_ENTRIES) break;
      const path = join(dir, name);
      const info = await lstat(path).catch(() => null);
      if (!info) continue;
      if (info.isDirectory()) stack.push(path);
      else if (info.isFile() && info.mtimeMs >= sinceMs) total += info.blocks * 512;
    }
  }
  return total;
}

/**
 * Watches the disk under `dirs` while a command runs; calls `onExceeded(bytes)` once when the command
 * wrote more than `maxBytes` there. Returns the function that stops watching.
 */
export function watchDiskWrites(
  dirs: readonly string[],
  maxBytes: number,
  onExceeded: (bytes: number) => void,
): () => void {
  const startedMs = Date.now() - 1_000; // mtime granularity of some file systems: count a little early.
  let baseline: number | undefined;
  let nextCheckAt = maxBytes;
  let busy = false;
  let stopped = false;
  void freeBytes(dirs[0]!).then((free) => (baseline = free));
  const timer = setInterval(() => {
    if (busy || stopped || baseline === undefined) return;
    busy = true;
    void (async () => {
      const free = await freeBytes(dirs[0]!);
      if (free === undefined || stopped) return;
      const lost = baseline! - free;
      if (lost <= nextCheckAt) return;
      const written = await bytesWrittenSince(dirs, startedMs);
      if (stopped) return;
      if (written > maxBytes) {
        stopped = true;
        clearInterval(timer);
        onExceeded(written);
      } else {
        // Someone else is filling this disk: look again only once it lost another cap's worth.
        nextCheckAt = lost + maxBytes;
      }
    })().finally(() => (busy = false));
  }, DISK_WATCH_INTERVAL_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
