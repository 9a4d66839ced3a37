/**
 * Global options and the environment they fall back to. Light on purpose (no @forge/shared): it is
 * evaluated before any command module's heavy dependencies are loaded.
 */

/** Options every command accepts (declared on the root program). */
export interface GlobalOptions {
  url?: string;
  token?: string;
  startDaemon?: boolean;
  /** false with --no-color. */
  color?: boolean;
}

export interface ResolvedGlobals {
  /** A daemon elsewhere (--url, FORGE_URL, BOT_SERVICE_URL); never started by us. */
  url: string | undefined;
  token: string | undefined;
  /** May a command that needs the daemon start it? */
  autostart: boolean;
  /** Why autostart is off, completing "it is not started automatically …". */
  autostartOffReason: string | undefined;
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

const nonBlank = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};

/** CI=true (or any CI value other than false/0, as CI services set it). */
export const isCi = (env: NodeJS.ProcessEnv): boolean => {
  const ci = nonBlank(env.CI)?.toLowerCase();
  return ci !== undefined && !FALSE.has(ci);
};

export function resolveGlobals(opts: GlobalOptions, env: NodeJS.ProcessEnv): ResolvedGlobals {
  const url = nonBlank(opts.url) ?? nonBlank(env.FORGE_URL) ?? nonBlank(env.BOT_SERVICE_URL);
  const token = nonBlank(opts.token) ?? nonBlank(env.FORGE_TOKEN);
  const flag = nonBlank(env.FORGE_AUTOSTART)?.toLowerCase();
  let autostart = true;
  let autostartOffReason: string | undefined;
  if (opts.startDaemon || (flag !== undefined && TRUE.has(flag))) autostart = true;
  else if (flag !== undefined && FALSE.has(flag)) {
    autostart = false;
    autostartOffReason = `because FORGE_AUTOSTART=${env.FORGE_AUTOSTART}`;
  } else if (isCi(env)) {
    autostart = false;
    autostartOffReason = 'under CI';
  }
  return { url: url?.replace(/\/+$/, ''), token, autostart, autostartOffReason };
}
