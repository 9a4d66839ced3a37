import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The package managers' caches, where the daemon's own environment keeps them: every build shares
 * them (a warm npm cache, pnpm's metadata, Yarn's and bun's caches), whatever home the build has.
 * pnpm's store is Forge's own (FORGE_HOME/store, set by the install step).
 */
export function sharedCaches(parent: Env = process.env): Record<string, string> {
  const home = parent.HOME ?? homedir();
  const xdgCache = parent.XDG_CACHE_HOME ?? join(home, '.cache');
  return {
    npm_config_cache: parent.npm_config_cache ?? parent.NPM_CONFIG_CACHE ?? join(home, '.npm'),
    // pnpm's metadata cache (`cache-dir`), read from npm_config_* like its other settings.
    npm_config_cache_dir:
      parent.npm_config_cache_dir ?? parent.NPM_CONFIG_CACHE_DIR ?? join(xdgCache, 'pnpm'),
    YARN_CACHE_FOLDER: parent.YARN_CACHE_FOLDER ?? join(xdgCache, 'yarn'),
    // Yarn Berry's global folder holds its shared cache.
    YARN_GLOBAL_FOLDER: parent.YARN_GLOBAL_FOLDER ?? join(home, '.yarn', 'berry'),
    BUN_INSTALL_CACHE_DIR: parent.BUN_INSTALL_CACHE_DIR ?? join(home, '.bun', 'install', 'cache'),
    COREPACK_HOME: parent.COREPACK_HOME ?? join(xdgCache, 'node', 'corepack'),
  };
}

/**
 * The environment of a command given its own writable home: HOME and the XDG folders in it, so a
 * tool's telemetry, settings and caches (~/.config, ~/.cache, ~/.local) land there, and the shared
 * package-manager caches pinned where the daemon keeps them. The daemon user's npm settings
 * (~/.npmrc: a company registry) are still read, from where they are.
 */
export function homeEnv(home: string, parent: Env = process.env): Record<string, string> {
  const realHome = parent.HOME ?? homedir();
  const userconfig = parent.npm_config_userconfig ?? parent.NPM_CONFIG_USERCONFIG ?? join(realHome, '.npmrc');
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    npm_config_userconfig: userconfig,
    ...sharedCaches(parent),
  };
}
