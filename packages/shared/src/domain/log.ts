import { z } from 'zod';

export const LOG_LEVELS = ['error', 'warn', 'success', 'info'] as const;
export const LogLevel = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof LogLevel>;
export const DEFAULT_LOG_LEVEL: LogLevel = 'info';
export const DEFAULT_BOT_NAME = 'SYSTEM';

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

/** Console filter (docs/product.md#fixit-console), default all. */
export const LOG_FILTERS = ['all', ...LOG_LEVELS] as const;
export type LogFilter = (typeof LOG_FILTERS)[number];
export const DEFAULT_LOG_FILTER: LogFilter = 'all';

export const matchesLogFilter = (level: LogLevel, filter: LogFilter): boolean =>
  filter === 'all' || level === filter;
