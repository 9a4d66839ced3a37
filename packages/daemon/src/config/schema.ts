import { z } from 'zod';

/** pino level names accepted in the config file. */
export const LOG_LEVEL_NAMES = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVEL_NAMES)[number];

/** `hostname` or `hostname:port`; IPv6 literals in brackets, e.g. `[::1]:4317`. */
const HOST_ENTRY = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

export const PortSchema = z.number().int().min(0).max(65_535);

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
}
