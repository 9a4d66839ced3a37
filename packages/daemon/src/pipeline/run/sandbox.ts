import { mkdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';

/** Extra paths for a sandboxed command. */
export interface SandboxOptions {
  /** Paths the command may write besides its cwd, /tmp and the package manager caches. */
  writable?: readonly string[];
  /** Directories replaced by an empty tmpfs (e.g. FORGE_HOME), besides the usual credential dirs. */
  hidden?: readonly string[];
}

/**
 * Options shared by the probe and every sandbox.
 * - `--unshare-pid`: the command and its descendants live in their own pid namespace, so when the
 *   command (or bwrap) goes, the kernel kills everything in it, even a grandchild that left the
 *   process group with setsid.
 * - bwrap stays in our process group (no `--new-session`: the runner already gave the group its own
 *   session and there is no terminal), so the runner's group signals reach it. Its consequence: bwrap
 *   dies of the group's SIGTERM at once and the namespace goes with it, i.e. inside the sandbox a
 *   timeout or cancel is immediate and the kill grace does not apply.
 * - `--die-with-parent`: if the daemon dies, even by SIGKILL, bwrap and the whole sandbox die too.
 */
const BASE_ARGS = [
  '--die-with-parent',
  '--unshare-pid',
  '--unshare-ipc',
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--tmpfs',
  '/tmp',
];

let probe: Promise<boolean> | undefined;

/**
 * Whether commands can be sandboxed here: Linux, `bwrap` on PATH, and allowed to create its
 * namespaces (it is not inside many containers). Probed once by running `true` in a sandbox.
 */
export function sandboxAvailable(): Promise<boolean> {
  probe ??= (async () => {
    if (process.platform !== 'linux') return false;
    const result = await execa('bwrap', [...BASE_ARGS, '--', 'true'], {
      reject: false,
      stdin: 'ignore',
      timeout: 10_000,
    });
    return result.exitCode === 0;
  })().catch(() => false);
  return probe;
}

/** Package manager caches a sandboxed install may write, from the command's environment. */
export function cacheDirs(env: Readonly<Record<string, string | undefined>>): string[] {
  const home = env.HOME;
  const dirs: (string | undefined)[] = [
    env.npm_config_cache ?? env.NPM_CONFIG_CACHE ?? (home && join(home, '.npm')),
    env.npm_config_store_dir ?? env.NPM_CONFIG_STORE_DIR,
    // pnpm's store and metadata, yarn classic, corepack, vite/esbuild caches all live here.
    env.XDG_CACHE_HOME ?? (home && join(home, '.cache')),
    env.XDG_DATA_HOME ? join(env.XDG_DATA_HOME, 'pnpm') : home && join(home, '.local', 'share', 'pnpm'),
    env.PNPM_HOME,
    env.YARN_CACHE_FOLDER,
    env.COREPACK_HOME,
    env.BUN_INSTALL_CACHE_DIR ?? (home && join(home, '.bun', 'install', 'cache')),
    home && join(home, '.yarn', 'berry'),
  ];
  return [...new Set(dirs.filter((dir): dir is string => typeof dir === 'string' && dir !== ''))];
}

/** Credential directories of the daemon's user that a build has no business reading. */
function credentialDirs(home: string | undefined): string[] {
  if (!home) return [];
  return [
    '.ssh',
    '.aws',
    '.gnupg',
    '.docker',
    '.kube',
    '.azure',
    join('.config', 'gh'),
    join('.config', 'gcloud'),
  ].map((dir) => join(home, dir));
}

async function existingDir(path: string): Promise<string | undefined> {
  try {
    const real = await realpath(path);
    return (await stat(real)).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Wraps `argv` in bwrap: the whole filesystem read-only, a private /tmp, credential dirs and `hidden`
 * masked, and writable binds for `cwd`, the caches and `writable`. Network is left on: installs need
 * the registry. The npm cache and XDG cache dirs are created first so a first install can fill them.
 */
export async function sandboxArgv(
  argv: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  options: SandboxOptions = {},
): Promise<string[]> {
  const realCwd = await realpath(cwd);
  const caches = cacheDirs(env);
  const home = env.HOME;
  const alwaysUsed = [
    env.npm_config_cache ?? env.NPM_CONFIG_CACHE ?? (home && join(home, '.npm')),
    env.XDG_CACHE_HOME ?? (home && join(home, '.cache')),
  ];
  await Promise.all(
    alwaysUsed.map((dir) => (dir ? mkdir(dir, { recursive: true }).catch(() => undefined) : undefined)),
  );

  const args = ['bwrap', ...BASE_ARGS];
  // Order matters: masks first, then writable binds, so a bind inside a masked dir (a project inside
  // FORGE_HOME) is mounted on top of the mask.
  for (const dir of [...credentialDirs(env.HOME), ...(options.hidden ?? [])]) {
    const real = await existingDir(dir);
    if (real) args.push('--tmpfs', real);
  }
  for (const dir of [...caches, ...(options.writable ?? [])]) {
    const real = await existingDir(dir);
    if (real && real !== realCwd) args.push('--bind', real, real);
  }
  args.push('--bind', realCwd, realCwd, '--chdir', realCwd, '--', ...argv);
  return args;
}
