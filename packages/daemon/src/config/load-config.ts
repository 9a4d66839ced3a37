import path from 'node:path';
import { cosmiconfig } from 'cosmiconfig';
import type { z } from 'zod';
import { DEFAULT_HOST, DEFAULT_PORT, resolveForgeHome, type DaemonConfigView } from '@forge/shared';
import { ConfigFileSchema, PortSchema, type ConfigFile, type DaemonConfig } from './schema.ts';

/** A config problem the user must fix; the message names the file (or variable) and the field. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    message: string,
    readonly source: string | null,
  ) {
    super(message);
  }
}

export interface LoadConfigInput {
  /** Where the config search starts (the daemon uses process.cwd()). */
  cwd: string;
  env: Record<string, string | undefined>;
  homedir: string;
  platform: string;
  /** Command-line flags; they win over env and file. */
  overrides?: { port?: number | undefined; host?: string | undefined };
}

const formatIssues = (issues: readonly z.core.$ZodIssue[]): string =>
  issues
    .map((issue) => {
      const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
      const unknown = issue.code === 'unrecognized_keys' ? `: ${issue.keys.join(', ')}` : '';
      return `  - ${field}: ${issue.message}${unknown}`;
    })
    .join('\n');

async function readConfigFile(
  cwd: string,
  homedir: string,
): Promise<{ file: string | null; data: ConfigFile }> {
  // stopDir makes cosmiconfig walk up from cwd to the home dir, then check the global config dir.
  const explorer = cosmiconfig('forge', { stopDir: homedir });
  let found: Awaited<ReturnType<typeof explorer.search>>;
  try {
    found = await explorer.search(cwd);
  } catch (err) {
    const file = (err as { filepath?: string }).filepath ?? null;
    throw new ConfigError(`Cannot read the Forge config: ${(err as Error).message}`, file);
  }
  if (!found || found.isEmpty) return { file: found?.filepath ?? null, data: {} };
  const parsed = ConfigFileSchema.safeParse(found.config);
  if (!parsed.success) {
    throw new ConfigError(
      `Invalid Forge config in ${found.filepath}:\n${formatIssues(parsed.error.issues)}`,
      found.filepath,
    );
  }
  return { file: found.filepath, data: parsed.data };
}

function envPort(env: Record<string, string | undefined>): number | undefined {
  const raw = env.FORGE_PORT?.trim();
  if (!raw) return undefined;
  const port = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!PortSchema.safeParse(port).success) {
    throw new ConfigError(`Invalid FORGE_PORT "${raw}": expected an integer from 0 to 65535.`, 'FORGE_PORT');
  }
  return port;
}

const nonBlank = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};

/** Merge defaults < config file < env (FORGE_HOME, FORGE_PORT, FORGE_HOST, FORGE_TOKEN) < flags. */
export async function loadConfig(input: LoadConfigInput): Promise<DaemonConfig> {
  const { file, data } = await readConfigFile(input.cwd, input.homedir);
  const home = path.resolve(
    resolveForgeHome({ platform: input.platform, env: input.env, homedir: input.homedir }),
  );
  const webRoot = data.webRoot ? path.resolve(file ? path.dirname(file) : input.cwd, data.webRoot) : null;
  return {
    home,
    host: input.overrides?.host ?? nonBlank(input.env.FORGE_HOST) ?? data.host ?? DEFAULT_HOST,
    port: input.overrides?.port ?? envPort(input.env) ?? data.port ?? DEFAULT_PORT,
    allowedHosts: data.allowedHosts ?? [],
    accessToken: nonBlank(input.env.FORGE_TOKEN) ?? data.accessToken ?? null,
    logLevel: data.logLevel ?? 'info',
    webRoot,
    configFile: file,
  };
}

/** The config as `print-config` shows it: the token is never printed. */
export const toConfigView = (config: DaemonConfig): DaemonConfigView => ({
  home: config.home,
  host: config.host,
  port: config.port,
  allowedHosts: config.allowedHosts,
  accessToken: config.accessToken === null ? null : '***',
  logLevel: config.logLevel,
  configFile: config.configFile,
});
