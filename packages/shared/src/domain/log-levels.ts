// Log levels and the console's filters without their schema (log.ts holds it and re-exports
// these), so a client's first paint can use them without zod (schema-free.ts).

export const LOG_LEVELS = ['error', 'warn', 'success', 'info'] as const;
// The type from the list itself: importing it from the schema file would make an import cycle.
type LogLevel = (typeof LOG_LEVELS)[number];
export const DEFAULT_LOG_LEVEL: LogLevel = 'info';
export const DEFAULT_BOT_NAME = 'SYSTEM';

/** Console filter (docs/product.md#fixit-console), default all. */
export const LOG_FILTERS = ['all', ...LOG_LEVELS] as const;
export type LogFilter = (typeof LOG_FILTERS)[number];
export const DEFAULT_LOG_FILTER: LogFilter = 'all';

export const matchesLogFilter = (level: LogLevel, filter: LogFilter): boolean =>
  filter === 'all' || level === filter;
