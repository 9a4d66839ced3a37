import { lstat, mkdir, readdir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { execa } from 'execa';

/** Extra paths for a sandboxed command. */
export interface SandboxOptions {
  /** Paths the command may write besides its cwd, /tmp and the package manager caches. */
  writable?: readonly string[];
  /** Directories replaced by an empty tmpfs (e.g. FORGE_HOME), besides the usual credential dirs. */
  hidden?: readonly string[];
  /**
   * A folder holding `cwd` and the `writable` dirs inside it, bound writable as ONE mount, with
   * everything else in it bound read-only over it. link(2) fails across mounts (even of one file
   * system), so a package manager can hard-link from a store into the project only when both are on
   * the same mount (FORGE_HOME/store → FORGE_HOME/projects/<name>). What appears in that folder after
   * the command starts is writable to it: use it for the install step only.
   */
  linkedRoot?: string;
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
  probe ??= probeSandbox(process.env);
  return probe;
}

/**
 * One uncached probe with `env`'s PATH, mounted as a real command's would be: a PATH that only lists
 * folders under /tmp must still find `true` behind the sandbox's private /tmp.
 */
export async function probeSandbox(env: Readonly<Record<string, string | undefined>>): Promise<boolean> {
  if (process.platform !== 'linux') return false;
  try {
    const result = await execa('bwrap', [...BASE_ARGS, ...(await pathUnderTmp(env)), '--', 'true'], {
      reject: false,
      stdin: 'ignore',
      timeout: 10_000,
      env: { ...env },
      extendEnv: false,
    });
    return result.exitCode === 0;
  } catch {
    return false;
  }
}

/** Package manager caches a sandboxed install may write, from the command's environment. */
export function cacheDirs(env: Readonly<Record<string, string | undefined>>): string[] {
  const home = env.HOME;
  const dirs: (string | undefined)[] = [
    env.npm_config_cache ?? env.NPM_CONFIG_CACHE ?? (home && join(home, '.npm')),
    env.npm_config_store_dir ?? env.NPM_CONFIG_STORE_DIR,
    // pnpm's metadata cache, when it is pinned outside the XDG cache below.
    env.npm_config_cache_dir ?? env.NPM_CONFIG_CACHE_DIR,
    // pnpm's store and metadata, yarn classic, corepack, vite/esbuild caches all live here.
    env.XDG_CACHE_HOME ?? (home && join(home, '.cache')),
    env.XDG_DATA_HOME ? join(env.XDG_DATA_HOME, 'pnpm') : home && join(home, '.local', 'share', 'pnpm'),
    env.PNPM_HOME,
    env.YARN_CACHE_FOLDER,
    env.COREPACK_HOME,
    env.BUN_INSTALL_CACHE_DIR ?? (home && join(home, '.bun', 'install', 'cache')),
    env.YARN_GLOBAL_FOLDER ?? (home && join(home, '.yarn', 'berry')),
    // Other stacks' installs: a project's Python virtual environment, pip's, Go's and Deno's caches.
    env.VIRTUAL_ENV,
    env.PIP_CACHE_DIR,
    env.GOMODCACHE,
    env.GOCACHE,
    env.GOPATH,
    env.DENO_DIR,
    // A Jekyll site's own gems (its Gemfile's bundle).
    env.GEM_HOME,
  ];
  return [...new Set(dirs.filter((dir): dir is string => typeof dir === 'string' && dir !== ''))];
}

/**
 * The default cache dirs a package manager creates on its first run, by command name. In the sandbox
 * the home folder is read-only, so they are created before the first install of that tool (and then
 * bound writable like every cache dir) instead of in every user's home for tools they never run.
 */
function firstRunDirs(command: string, env: Readonly<Record<string, string | undefined>>): string[] {
  const home = env.HOME;
  if (!home) return [];
  switch (basename(command)) {
    case 'bun':
    case 'bunx':
      return [env.BUN_INSTALL_CACHE_DIR ?? join(home, '.bun', 'install', 'cache')];
    case 'yarn':
    case 'yarnpkg':
      return [
        env.YARN_GLOBAL_FOLDER ?? join(home, '.yarn', 'berry'),
        ...(env.YARN_CACHE_FOLDER ? [env.YARN_CACHE_FOLDER] : []),
      ];
    case 'pnpm':
    case 'pnpx':
      return [
        env.XDG_DATA_HOME ? join(env.XDG_DATA_HOME, 'pnpm') : join(home, '.local', 'share', 'pnpm'),
        ...(env.npm_config_cache_dir ? [env.npm_config_cache_dir] : []),
      ];
    default:
      return [];
  }
}

/**
 * Credential directories of the daemon's user that a build has no business reading: in the daemon's
 * home, and in the command's when it has one of its own.
 */
function credentialDirs(home: string | undefined): string[] {
  const homes = [...new Set([process.env.HOME ?? homedir(), ...(home ? [home] : [])])];
  return homes.flatMap((dir) => credentialsIn(dir));
}

function credentialsIn(home: string): string[] {
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

const isInside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/**
 * `--ro-bind` for everything under `root` except the `keep` paths and the folders that lead to them,
 * so that in a writable `root` only `keep` can be written. Links are left alone: writing through one
 * lands wherever it points, which is read-only unless it is itself kept.
 */
async function readOnlyExcept(root: string, keep: readonly string[]): Promise<string[]> {
  const args: string[] = [];
  let entries: string[];
  try {
    entries = await readdir(root);
  } catch {
    return args;
  }
  for (const entry of entries.sort()) {
    const path = join(root, entry);
    if (keep.includes(path)) continue;
    const info = await lstat(path).catch(() => null);
    if (!info || info.isSymbolicLink()) continue;
    if (info.isDirectory() && keep.some((k) => isInside(path, k)))
      args.push(...(await readOnlyExcept(path, keep)));
    // -try: an entry removed since it was listed (a node_modules being discarded in the background
    // from FORGE_HOME's tmp, beside a repair trial's copy) is skipped instead of failing the command.
    else args.push('--ro-bind-try', path, path);
  }
  return args;
}

/**
 * PATH folders under /tmp would vanish behind the sandbox's private /tmp. Each is bound back
 * read-only with the folder above it, which holds what its commands link to (a toolchain's bin/ and
 * node_modules/ when FORGE_HOME is under /tmp); a folder directly in /tmp is bound alone, since
 * binding /tmp itself would undo the private /tmp.
 */
async function pathUnderTmp(env: Readonly<Record<string, string | undefined>>): Promise<string[]> {
  const args: string[] = [];
  const seen = new Set<string>();
  for (const entry of (env.PATH ?? '').split(delimiter)) {
    if (!entry.startsWith('/tmp/')) continue;
    const parent = dirname(entry);
    const real = await existingDir(parent === '/tmp' ? entry : parent);
    if (!real || !real.startsWith('/tmp/') || seen.has(real)) continue;
    seen.add(real);
    args.push('--ro-bind', real, real);
  }
  return args;
}

/**
 * Wraps `argv` in bwrap: the whole filesystem read-only, a private /tmp, credential dirs and `hidden`
 * masked, and writable binds for `cwd`, the caches and `writable` (cwd and those inside `linkedRoot` as
 * one mount). Network is left on: installs need the registry. The npm and XDG cache dirs (and the
 * running package manager's own) are created first so a first install can fill them: a dir that does
 * not exist cannot be bound. FORGE_HOME's toolchains are read through the read-only root (or bound back
 * when they are under /tmp): a provisioned package manager runs from there.
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
  const created = [
    env.npm_config_cache ?? env.NPM_CONFIG_CACHE ?? (home && join(home, '.npm')),
    env.XDG_CACHE_HOME ?? (home && join(home, '.cache')),
    ...firstRunDirs(argv[0] ?? '', env),
    // Caches pinned outside the command's home (build-home.ts): any script may run any package
    // manager, and a cache that does not exist cannot be bound writable.
    ...(env.HOME && env.npm_config_cache_dir
      ? [env.npm_config_cache_dir, env.YARN_CACHE_FOLDER, env.YARN_GLOBAL_FOLDER, env.BUN_INSTALL_CACHE_DIR]
      : []),
  ];
  await Promise.all(
    created.map((dir) => (dir ? mkdir(dir, { recursive: true }).catch(() => undefined) : undefined)),
  );

  const args = ['bwrap', ...BASE_ARGS, ...(await pathUnderTmp(env))];
  // Order matters: masks first, then writable binds, so a bind inside a masked dir (a project inside
  // FORGE_HOME) is mounted on top of the mask.
  for (const dir of [...credentialDirs(env.HOME), ...(options.hidden ?? [])]) {
    const real = await existingDir(dir);
    if (real) args.push('--tmpfs', real);
  }
  const writable = (await Promise.all((options.writable ?? []).map(existingDir))).filter(
    (dir): dir is string => dir !== undefined,
  );
  const linkedRoot = options.linkedRoot ? await existingDir(options.linkedRoot) : undefined;
  // cwd and the writable dirs inside the linked root share its one mount (no bind of their own), bound
  // before the caches so that a cache inside it is still mounted on top.
  const linked =
    linkedRoot && isInside(linkedRoot, realCwd)
      ? [realCwd, ...writable].filter((dir) => isInside(linkedRoot, dir))
      : [];
  if (linkedRoot && linked.length > 0) {
    args.push('--bind', linkedRoot, linkedRoot, ...(await readOnlyExcept(linkedRoot, linked)));
  }
  const cacheDirsHere = (await Promise.all(caches.map(existingDir))).filter(
    (dir): dir is string => dir !== undefined,
  );
  for (const dir of new Set([...cacheDirsHere, ...writable])) {
    if (dir !== realCwd && !linked.includes(dir)) args.push('--bind', dir, dir);
  }
  if (!linked.includes(realCwd)) args.push('--bind', realCwd, realCwd);
  args.push('--chdir', realCwd, '--', ...argv);
  return args;
}
