/**
 * The environment a build command sees. Uploaded projects run arbitrary scripts, so they get an
 * allow-list of the daemon's variables (what toolchains need to find binaries, caches, locale and CA
 * certificates), never the daemon's own settings or anything that looks like a credential.
 */

type Env = Readonly<Record<string, string | undefined>>;

const ALLOWED_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TMPDIR',
  'TMP',
  'TEMP',
  'SHELL',
  'TZ',
  // Installs behind a TLS-inspecting proxy need the extra CA certificates.
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  // Package manager caches and registry: reusing them is the biggest install speed-up.
  'npm_config_cache',
  'NPM_CONFIG_CACHE',
  'npm_config_store_dir',
  'NPM_CONFIG_STORE_DIR',
  'npm_config_registry',
  'NPM_CONFIG_REGISTRY',
  'PNPM_HOME',
  'YARN_CACHE_FOLDER',
  'BUN_INSTALL_CACHE_DIR',
  'COREPACK_HOME',
  // The user's registry for the package managers that do not read npm's settings (Yarn Berry, bun)
  // or read their own first (Yarn classic): a provisioned tool honours it like npm does.
  'YARN_NPM_REGISTRY_SERVER',
  'YARN_REGISTRY',
  'BUN_CONFIG_REGISTRY',
]);
const ALLOWED_PREFIXES = ['LC_', 'XDG_'];

/** Names never passed from the daemon, even when allow-listed by prefix. */
const DENIED = /TOKEN|SECRET|PASSW(OR)?D|KEY|CREDENTIAL|AUTH/i;
/** The daemon's own namespace: neither inherited nor settable by a caller. */
const RESERVED = /^FORGE_/i;

/** Always set: non-interactive, no colour codes in stored logs, no network calls for nags. */
export const FORCED_BUILD_ENV: Readonly<Record<string, string>> = {
  CI: 'true',
  FORCE_COLOR: '0',
  NO_COLOR: '1',
  NO_UPDATE_NOTIFIER: '1',
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

/** True when a daemon variable may reach a build command. */
export function isInheritable(name: string): boolean {
  if (RESERVED.test(name) || DENIED.test(name)) return false;
  return ALLOWED_NAMES.has(name) || ALLOWED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * Builds a command's environment: allow-listed variables of `parentEnv`, then `FORCED_BUILD_ENV`, then
 * `extra` (the step's or the project's own variables; `undefined` removes one). `extra` may set any
 * name except `FORGE_*`, which is dropped.
 */
export function scrubEnv(parentEnv: Env, extra: Env = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (value !== undefined && isInheritable(name)) env[name] = value;
  }
  Object.assign(env, FORCED_BUILD_ENV);
  for (const [name, value] of Object.entries(extra)) {
    if (RESERVED.test(name)) continue;
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}
