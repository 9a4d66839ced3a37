/**
 * Kernel-enforced limits for one build command, so that a runaway script (a fork bomb, a memory hog,
 * a file that grows without end) is stopped by the kernel instead of taking the machine with it:
 *
 * - processes and memory: a cgroup of its own per command (v1 `pids` + `memory` controllers, or a v2
 *   cgroup delegated to the daemon), when the daemon may create one. The kernel refuses forks past
 *   `pids.max` and OOM-kills inside the cgroup past the memory limit (a sandbox's private /tmp is
 *   tmpfs and is charged there too). Elsewhere the sandbox's PID namespace plus the timeout is what
 *   ends a fork bomb.
 * - file size: RLIMIT_FSIZE (`ulimit -f`), everywhere, root included (no capability lifts it).
 *
 * Both are applied by a tiny `/bin/sh` wrapper that enters the cgroup and sets the rlimit, then execs
 * the command: the pid (and so the process group) stays the command's own.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { formatBytes } from '@forge/shared';
import { parseByteSize } from './byte-size.ts';

export interface ResourceLimits {
  /** Memory of the command's cgroup (all its processes and their tmpfs files). */
  memoryBytes: number;
  /** Processes and threads of the command's cgroup. */
  pids: number;
  /** Largest file the command may write (RLIMIT_FSIZE). */
  fileSizeBytes: number;
  /** Bytes the command may add to the disk of its folders while it runs (see disk-watch.ts). */
  writtenBytes: number;
}

const GiB = 1024 ** 3;

/** Half the machine's memory, between 1 and 8 GiB: room for a big webpack build, not for a leak. */
export const DEFAULT_MEMORY_BYTES = Math.max(GiB, Math.min(8 * GiB, Math.floor(totalmem() / 2)));
/** Counts threads too: node alone has ~10, a test runner with workers a few hundred. */
export const DEFAULT_PIDS = 4_096;
export const DEFAULT_FILE_SIZE_BYTES = 4 * GiB;
export const DEFAULT_WRITTEN_BYTES = 20 * GiB;

/**
 * The limits, each overridable by the daemon's environment (an operator with unusual builds, and the
 * reliability tests, which prove each limit quickly with small values): FORGE_BUILD_MEMORY_MAX,
 * FORGE_BUILD_PIDS_MAX, FORGE_BUILD_FILE_SIZE_MAX, FORGE_BUILD_WRITE_MAX ("512m", "2g" or bytes).
 * A project cannot set them: `FORGE_*` never reaches or comes from a build.
 */
export function resourceLimits(
  env: Readonly<Record<string, string | undefined>> = process.env,
): ResourceLimits {
  const bytes = (name: string, fallback: number) => parseByteSize(env[name]) ?? fallback;
  const pids = Number(env.FORGE_BUILD_PIDS_MAX);
  return {
    memoryBytes: bytes('FORGE_BUILD_MEMORY_MAX', DEFAULT_MEMORY_BYTES),
    pids: Number.isInteger(pids) && pids >= 16 ? pids : DEFAULT_PIDS,
    fileSizeBytes: bytes('FORGE_BUILD_FILE_SIZE_MAX', DEFAULT_FILE_SIZE_BYTES),
    writtenBytes: bytes('FORGE_BUILD_WRITE_MAX', DEFAULT_WRITTEN_BYTES),
  };
}

/** Where the daemon may create cgroups: one folder per controller (v1) or one for both (v2). */
interface CgroupRoots {
  version: 1 | 2;
  pids: string;
  memory: string;
}

let rootsProbe: Promise<CgroupRoots | null> | undefined;

/** Reads /proc/self/cgroup once: the daemon's own cgroups are where its commands' cgroups go. */
function cgroupRoots(): Promise<CgroupRoots | null> {
  rootsProbe ??= (async (): Promise<CgroupRoots | null> => {
    if (process.platform !== 'linux') return null;
    const lines = (await readFile('/proc/self/cgroup', 'utf8')).split('\n');
    const v1 = (controller: string) => {
      for (const line of lines) {
        const [, controllers, path] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
        if (controllers?.split(',').includes(controller)) return join('/sys/fs/cgroup', controller, path!);
      }
      return undefined;
    };
    const pids = v1('pids');
    const memory = v1('memory');
    if (pids && memory) return { version: 1, pids, memory };
    const unified = /^0::(.*)$/m.exec(lines.join('\n'))?.[1];
    if (unified !== undefined) {
      const dir = join('/sys/fs/cgroup', unified);
      return { version: 2, pids: dir, memory: dir };
    }
    return null;
  })().catch(() => null);
  return rootsProbe;
}

/** What the kernel counted against a command's cgroup. */
export interface CgroupEvents {
  /** Processes the OOM killer ended in it. */
  oomKills: number;
  /** Forks refused at pids.max. */
  forksRefused: number;
}

/** What the runner saw of the limits: the cgroup's counters, and whether a write failed with EFBIG. */
export interface LimitEvents extends CgroupEvents {
  fileTooLarge: boolean;
}

export interface CommandCgroup {
  /** cgroup.procs files the wrapper writes its pid to. */
  readonly procsFiles: readonly string[];
  events(): Promise<CgroupEvents>;
  /** SIGKILLs whatever is still in it (even a process that left the group) and removes it. */
  remove(): Promise<void>;
}

let sequence = 0;
let sweep: Promise<void> | undefined;

/**
 * Removes the cgroups of daemons that are gone: a SIGKILLed daemon cannot remove its own (its commands
 * died with it, see `--die-with-parent`, so they are empty or emptied here). Once per process.
 */
function sweepStale(roots: CgroupRoots): Promise<void> {
  sweep ??= (async () => {
    for (const root of new Set([roots.pids, roots.memory])) {
      const names = await readdir(root).catch(() => [] as string[]);
      const stale = names.filter((name) => {
        const owner = /^forge-(\d+)-\d+$/.exec(name)?.[1];
        return owner !== undefined && Number(owner) !== process.pid && !existsSync(`/proc/${owner}`);
      });
      await Promise.all(stale.map((name) => removeDirs([join(root, name)])));
    }
  })().catch(() => undefined);
  return sweep;
}

const counter = (text: string, name: string): number =>
  Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);

const readOr = (file: string) => readFile(file, 'utf8').catch(() => '');

async function pidsIn(dirs: readonly string[]): Promise<number[]> {
  const texts = await Promise.all(dirs.map((dir) => readOr(join(dir, 'cgroup.procs'))));
  return [...new Set(texts.join('\n').split('\n').filter(Boolean).map(Number))];
}

async function removeDirs(dirs: readonly string[]): Promise<void> {
  // A killed process leaves its cgroup only once the kernel has reaped it: retry briefly.
  for (let attempt = 0; attempt < 50; attempt++) {
    for (const pid of await pidsIn(dirs)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone meanwhile */
      }
    }
    const left = await Promise.all(
      dirs.map((dir) =>
        rmdir(dir).then(
          () => false,
          (error: NodeJS.ErrnoException) => error.code !== 'ENOENT',
        ),
      ),
    );
    if (!left.includes(true)) return;
    await new Promise((resolve) => setTimeout(resolve, 20 + attempt * 10));
  }
}

/**
 * A fresh cgroup with `limits` for one command, or null when the daemon cannot create one here (no
 * cgroup file system, not delegated, not Linux): the caller then runs without it.
 */
export async function createCommandCgroup(limits: ResourceLimits): Promise<CommandCgroup | null> {
  const roots = await cgroupRoots();
  if (!roots) return null;
  await sweepStale(roots);
  const name = `forge-${process.pid}-${++sequence}`;
  const pidsDir = join(roots.pids, name);
  const memoryDir = join(roots.memory, name);
  const dirs = [...new Set([pidsDir, memoryDir])];
  try {
    for (const dir of dirs) await mkdir(dir);
    await writeFile(join(pidsDir, 'pids.max'), String(limits.pids));
    if (roots.version === 1) {
      await writeFile(join(memoryDir, 'memory.limit_in_bytes'), String(limits.memoryBytes));
      // With swap, the limit would only push the hog into swap: cap memory + swap alike (when accounted).
      await writeFile(join(memoryDir, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes)).catch(
        () => undefined,
      );
    } else {
      await writeFile(join(memoryDir, 'memory.max'), String(limits.memoryBytes));
      await writeFile(join(memoryDir, 'memory.swap.max'), '0').catch(() => undefined);
    }
  } catch {
    await removeDirs(dirs);
    return null;
  }
  return {
    procsFiles: dirs.map((dir) => join(dir, 'cgroup.procs')),
    async events() {
      const memoryEvents = await readOr(
        join(memoryDir, roots.version === 1 ? 'memory.oom_control' : 'memory.events'),
      );
      return {
        oomKills: counter(memoryEvents, 'oom_kill'),
        forksRefused: counter(await readOr(join(pidsDir, 'pids.events')), 'max'),
      };
    },
    remove: () => removeDirs(dirs),
  };
}

/** How much nicer than the daemon a build command runs (nice(1): 0 normal … 19 nicest). */
export const BUILD_NICENESS = 10;

/**
 * The script of the wrapper: `sh -c SCRIPT forge-limits <fsize blocks> <procs files…> -- argv…`.
 * `ulimit -f` counts 512-byte blocks in every POSIX sh (dash, bash as sh, busybox). SIGXFSZ is ignored
 * (and stays so across exec), so a write past the limit fails with EFBIG, which the program reports in
 * its own words, instead of killing it without a trace.
 */
const WRAPPER = [
  'ulimit -f "$1" || exit 126',
  "trap '' XFSZ",
  'shift',
  'while [ "$1" != -- ]; do echo $$ > "$1" || exit 126; shift; done',
  'shift',
  // Below the daemon in CPU priority: a build that spins every core leaves the daemon (its pages,
  // its /ws, new connections) the CPU it needs. Every process of the build inherits it.
  `if command -v nice >/dev/null 2>&1; then exec nice -n ${BUILD_NICENESS} "$@"; fi`,
  'exec "$@"',
].join('\n');

/** `argv` run under the file-size rlimit and, given one, inside `cgroup`. */
export function limitedArgv(
  argv: readonly string[],
  limits: ResourceLimits,
  cgroup: CommandCgroup | null,
): string[] {
  const blocks = Math.max(1, Math.floor(limits.fileSizeBytes / 512));
  return [
    '/bin/sh',
    '-c',
    WRAPPER,
    'forge-limits',
    String(blocks),
    ...(cgroup?.procsFiles ?? []),
    '--',
    ...argv,
  ];
}

/** The line a command's log gets when it hit a limit, and why it failed (null: no limit was hit). */
export function limitMessage(
  limits: ResourceLimits,
  events: LimitEvents,
  signal: string | null,
): { line: string; error: string } | null {
  if (events.oomKills > 0) {
    const text = `used more than its memory limit of ${formatBytes(limits.memoryBytes)} and was stopped by the system`;
    return { line: `[forge] the command ${text}`, error: text };
  }
  if (events.fileTooLarge || signal === 'SIGXFSZ') {
    const text = `wrote a file larger than the limit of ${formatBytes(limits.fileSizeBytes)} per file and was stopped`;
    return { line: `[forge] the command ${text}`, error: text };
  }
  if (events.forksRefused > 0) {
    const text = `reached its limit of ${limits.pids} processes: ${events.forksRefused} more were refused`;
    return { line: `[forge] the command ${text}`, error: text };
  }
  return null;
}
