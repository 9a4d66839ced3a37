import path from 'node:path';
import { cosmiconfig } from 'cosmiconfig';
import type { z } from 'zod';
import {
  DEFAULT_HOST,
  DEFAULT_PORT,
  redactUrlPassword,
  resolveForgeHome,
  type DaemonConfigView,
} from '@forge/shared';
import {
  ConfigFileSchema,
  DEFAULT_BRAIN_SESSION_MINUTES,
  PortSchema,
  ProviderUrlSchema,
  QueueUrlSchema,
  type BrainConfig,
  type QueueConfig,
  type ConfigFile,
  type DaemonConfig,
} from './schema.ts';

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

/**
 * The brain's model: the file's `brain.provider`, each field overridable by FORGE_BRAIN_URL,
 * FORGE_BRAIN_MODEL and FORGE_BRAIN_API_KEY. The env alone can configure one; half a provider (a URL
 * without a model) is refused by name rather than silently ignored.
 */
function brainConfig(
  data: ConfigFile,
  env: Record<string, string | undefined>,
  file: string | null,
): BrainConfig {
  const fromFile = data.brain?.provider;
  const envUrl = nonBlank(env.FORGE_BRAIN_URL);
  if (envUrl !== undefined && !ProviderUrlSchema.safeParse(envUrl).success) {
    throw new ConfigError(
      `Invalid FORGE_BRAIN_URL "${envUrl}": expected an http or https URL, e.g. http://127.0.0.1:11434/v1.`,
      'FORGE_BRAIN_URL',
    );
  }
  const url = envUrl ?? fromFile?.url;
  const model = nonBlank(env.FORGE_BRAIN_MODEL) ?? fromFile?.model;
  const sessionMinutes = data.brain?.sessionMinutes ?? DEFAULT_BRAIN_SESSION_MINUTES;
  if (url === undefined && model === undefined) return { provider: null, sessionMinutes };
  if (url === undefined || model === undefined) {
    const missing = url === undefined ? 'url (FORGE_BRAIN_URL)' : 'model (FORGE_BRAIN_MODEL)';
    throw new ConfigError(
      `The brain's model provider needs both a url and a model; ${missing} is not set.`,
      file ?? (url === undefined ? 'FORGE_BRAIN_URL' : 'FORGE_BRAIN_MODEL'),
    );
  }
  let apiKey = nonBlank(env.FORGE_BRAIN_API_KEY) ?? fromFile?.apiKey ?? null;
  if (apiKey === null && fromFile?.apiKeyEnv) {
    apiKey = nonBlank(env[fromFile.apiKeyEnv]) ?? null;
    if (apiKey === null) {
      throw new ConfigError(
        `brain.provider.apiKeyEnv in ${file ?? 'the Forge config'} names ${fromFile.apiKeyEnv}, which is not set.`,
        file,
      );
    }
  }
  return { provider: { url: url.replace(/\/+$/, ''), model, apiKey }, sessionMinutes };
}

/** The build queue: FORGE_QUEUE_URL, else the file's `queue`, else in-process. */
function queueConfig(data: ConfigFile, env: Record<string, string | undefined>): QueueConfig {
  const fromEnv = nonBlank(env.FORGE_QUEUE_URL);
  if (fromEnv !== undefined && !QueueUrlSchema.safeParse(fromEnv).success) {
    throw new ConfigError(
      `Invalid FORGE_QUEUE_URL "${redactQueueUrl(fromEnv)}": expected a Redis URL, e.g. redis://127.0.0.1:6379.`,
      'FORGE_QUEUE_URL',
    );
  }
  const url = fromEnv ?? data.queue;
  return url === undefined ? { kind: 'in-process', url: null } : { kind: 'bullmq', url };
}

/** A Redis URL with its password (if any) replaced by "***", for printing and logs. */
export const redactQueueUrl = redactUrlPassword;

/** Merge defaults < config file < env (FORGE_HOME, FORGE_PORT, FORGE_HOST, FORGE_TOKEN, FORGE_BRAIN_*, FORGE_QUEUE_URL) < flags. */
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
    brain: brainConfig(data, input.env, file),
    queue: queueConfig(data, input.env),
  };
}

/**
 * The config as `print-config` and `GET /api/config` show it: the token, the model's key and any
 * password in a URL are never printed.
 */
export const toConfigView = (config: DaemonConfig): DaemonConfigView => ({
  home: config.home,
  host: config.host,
  port: config.port,
  allowedHosts: config.allowedHosts,
  accessToken: config.accessToken === null ? null : '***',
  logLevel: config.logLevel,
  configFile: config.configFile,
  brain: {
    provider: config.brain.provider && {
      url: redactUrlPassword(config.brain.provider.url),
      model: config.brain.provider.model,
      apiKey: config.brain.provider.apiKey === null ? null : '***',
    },
    sessionMinutes: config.brain.sessionMinutes,
  },
  queue: {
    kind: config.queue.kind,
    url: config.queue.url === null ? null : redactQueueUrl(config.queue.url),
  },
});
