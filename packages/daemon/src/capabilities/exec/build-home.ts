import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The package managers' caches, Forge's own: one folder per tool in FORGE_HOME/caches, shared by
 * every build of this daemon (a warm cache after the first install) and by nothing else, so no
 * other program, user or Forge writes them meanwhile. Safe under parallel builds: npm's cacache,
 * pnpm's metadata cache and store, Yarn Berry's and bun's caches write each entry to a temporary
 * and rename it in; Yarn 1's does not, so its installs hold the cache's lock (install.ts
 * yarnCacheLock). pnpm's store is FORGE_HOME/store (set by the install step).
 */
export function forgeCaches(cachesDir: string): Record<string, string> {
  return {
    npm_config_cache: join(cachesDir, 'npm'),
    // pnpm's metadata cache (`cache-dir`), read from npm_config_* like its other settings.
    npm_config_cache_dir: join(cachesDir, 'pnpm'),
    YARN_CACHE_FOLDER: join(cachesDir, 'yarn'),
    // Yarn Berry's global folder holds its shared cache.
    YARN_GLOBAL_FOLDER: join(cachesDir, 'yarn-berry'),
    BUN_INSTALL_CACHE_DIR: join(cachesDir, 'bun'),
    COREPACK_HOME: join(cachesDir, 'corepack'),
  };
}

/**
 * The environment of a command given its own writable home: HOME and the XDG folders in it, so a
 * tool's telemetry, settings and caches (~/.config, ~/.cache, ~/.local) land there, and the
 * package-manager caches pinned in `cachesDir` (FORGE_HOME/caches) when given. The daemon user's
 * npm settings (~/.npmrc: a company registry) are still read, from where they are.
 */
export function homeEnv(
  home: string,
  cachesDir: string | undefined,
  parent: Env = process.env,
): Record<string, string> {
  const realHome = parent.HOME ?? homedir();
  const userconfig = parent.npm_config_userconfig ?? parent.NPM_CONFIG_USERCONFIG ?? join(realHome, '.npmrc');
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    npm_config_userconfig: userconfig,
    ...(cachesDir === undefined ? {} : forgeCaches(cachesDir)),
  };
}
