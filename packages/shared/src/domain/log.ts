import { z } from 'zod';
import { DEFAULT_BOT_NAME, DEFAULT_LOG_LEVEL, LOG_LEVELS } from './log-levels.ts';

export * from './log-levels.ts';

export const LogLevel = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof LogLevel>;

/** A log entry (docs/product.md#entities). */
export const LogEntry = z.object({
  id: z.string(),
  /** ISO-8601 time the line was produced. */
  timestamp: z.string(),
  level: LogLevel.default(DEFAULT_LOG_LEVEL),
  botName: z.string().default(DEFAULT_BOT_NAME),
  message: z.string(),
});
export type LogEntry = z.infer<typeof LogEntry>;
