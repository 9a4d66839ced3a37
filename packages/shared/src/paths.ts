/**
 * Where Forge keeps its data when FORGE_HOME is not set: the platform's data dir for "forge".
 * Pure (no node:* imports) so the daemon and the CLI agree on it without sharing code paths.
 */
export interface DataDirInput {
  platform: string;
  env: Record<string, string | undefined>;
  homedir: string;
}

export function defaultDataDir({ platform, env, homedir }: DataDirInput): string {
  if (platform === 'win32') {
    const base = env.LOCALAPPDATA ?? `${homedir}\\AppData\\Local`;
    return `${base}\\forge\\Data`;
  }
  if (platform === 'darwin') return `${homedir}/Library/Application Support/forge`;
  const xdg = env.XDG_DATA_HOME;
  return `${xdg && xdg.startsWith('/') ? xdg : `${homedir}/.local/share`}/forge`;
}

/** FORGE_HOME when set (and not blank), else the platform default. */
export const resolveForgeHome = (input: DataDirInput): string => {
  const fromEnv = input.env.FORGE_HOME?.trim();
  return fromEnv ? fromEnv : defaultDataDir(input);
};

/** Name of the daemon state file inside FORGE_HOME. */
export const DAEMON_STATE_FILE = 'daemon.json';
export const LOG_DIR = 'logs';
export const DAEMON_LOG_FILE = 'daemon.log';
