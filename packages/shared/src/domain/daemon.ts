import { z } from 'zod';

/** `<FORGE_HOME>/daemon.json`, written atomically by the daemon once it listens. */
export const DaemonState = z.object({
  pid: z.number().int().positive(),
  port: z.number().int().positive(),
  host: z.string(),
  /** The URL clients use (loopback form of the bound address). */
  url: z.string(),
  version: z.string(),
  /** ISO-8601 start time. */
  startedAt: z.string(),
});
export type DaemonState = z.infer<typeof DaemonState>;
