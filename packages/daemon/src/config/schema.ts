import { z } from 'zod';

/** pino level names accepted in the config file. */
export const LOG_LEVEL_NAMES = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVEL_NAMES)[number];

/** `hostname` or `hostname:port`; IPv6 literals in brackets, e.g. `[::1]:4317`. */
const HOST_ENTRY = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

export const PortSchema = z.number().int().min(0).max(65_535);

/** Brain sessions last this long after the code phrase unless `brain.sessionMinutes` says otherwise. */
export const DEFAULT_BRAIN_SESSION_MINUTES = 30;

/** An http(s) URL: the base of an OpenAI-compatible API, such as http://127.0.0.1:11434/v1. */
export const ProviderUrlSchema = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === ''
      );
    } catch {
      return false;
    }
  }, 'expected an http or https URL without credentials, e.g. "http://127.0.0.1:11434/v1"');

/** A Redis URL for the build queue: redis:// or rediss://, e.g. redis://127.0.0.1:6379. */
export const QueueUrlSchema = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'expected a Redis URL, e.g. "redis://127.0.0.1:6379"');

/**
 * The language model the assistants may use: any OpenAI-compatible chat completions endpoint. The
 * key is either written here (`apiKey`) or named by the environment variable holding it (`apiKeyEnv`).
 */
export const BrainProviderSchema = z.strictObject({
  url: ProviderUrlSchema,
  model: z.string().trim().min(1),
  apiKey: z.string().min(1).optional(),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name, e.g. "OPENAI_API_KEY"')
    .optional(),
});

export const BrainConfigSchema = z.strictObject({
  provider: BrainProviderSchema.optional(),
  /** How long a brain session lasts after the code phrase, in minutes. */
  sessionMinutes: z.number().int().min(1).max(1_440).optional(),
});

/**
 * What a `forge` config file (forge.config.*, .forgerc*, "forge" in package.json) may hold.
 * Strict, so a misspelt field is reported instead of silently ignored.
 */
export const ConfigFileSchema = z.strictObject({
  /** Port to listen on; 0 picks a free one. */
  port: PortSchema.optional(),
  /** Address to bind; anything but loopback requires an access token. */
  host: z.string().min(1).optional(),
  /** Extra Host header values the daemon answers to (`name` or `name:port`). */
  allowedHosts: z
    .array(
      z.string().regex(HOST_ENTRY, 'expected a host name or host:port, e.g. "forge.lan" or "forge.lan:4317"'),
    )
    .optional(),
  /** Shared secret every request must carry when set. */
  accessToken: z.string().min(1).optional(),
  logLevel: z.enum(LOG_LEVEL_NAMES).optional(),
  /** Directory of a built web app to serve instead of @forge/web's dist. */
  webRoot: z.string().min(1).optional(),
  /** The brain: its language model (optional) and how long a session lasts. */
  brain: BrainConfigSchema.optional(),
  /** Scale-out: queue build jobs on this Redis for `forge worker` processes (docs/scale-out.md). */
  queue: QueueUrlSchema.optional(),
});
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** The merged configuration the daemon runs with (file < env < command line). */
export interface DaemonConfig {
  home: string;
  host: string;
  port: number;
  allowedHosts: string[];
  accessToken: string | null;
  logLevel: LogLevelName;
  /** Absolute; null means "@forge/web's dist, if installed". */
  webRoot: string | null;
  /** The config file that was read, if any. */
  configFile: string | null;
  brain: BrainConfig;
  /** Where build jobs run: the daemon's own slots, or BullMQ on the Redis at `url`. */
  queue: QueueConfig;
}

export type QueueConfig = { kind: 'in-process'; url: null } | { kind: 'bullmq'; url: string };

/** A configured model endpoint, its key resolved (from the file, FORGE_BRAIN_API_KEY or apiKeyEnv). */
export interface BrainProvider {
  url: string;
  model: string;
  /** Sent as `Authorization: Bearer`; never logged or printed. */
  apiKey: string | null;
}

export interface BrainConfig {
  /** null: the brain answers with its built-in engine only. */
  provider: BrainProvider | null;
  sessionMinutes: number;
}
