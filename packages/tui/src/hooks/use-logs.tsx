import { createContext, useContext, useRef, type ReactNode } from 'react';
import {
  DEFAULT_BOT_NAME,
  STAGE_LABELS,
  type BuildStatus,
  type LogLevel,
  type ServerMessage,
  type Stage,
} from '@forge/shared';
import { LOG_BUFFER_LINES } from '../constants.ts';
import { sanitizeLine, splitOutput } from '../format.ts';
import { useBatchedList } from './use-batched-list.ts';
import { useMessages } from './use-forge.tsx';

/** A line of the logs pane (the FixIt console). */
export interface ConsoleLine {
  key: number;
  level: LogLevel;
  botName: string;
  text: string;
  /** ISO time; the local receive time when the message carries none. */
  timestamp: string;
}

/** Stage → console level: success and failure stand out, the rest is info (as the web console). */
function stageLevel(stage: Stage): LogLevel {
  if (stage === 'build-success' || stage === 'integration-available') return 'success';
  if (stage === 'build-failed' || stage === 'build-timeout') return 'error';
  return 'info';
}

function statusLevel(status: BuildStatus): LogLevel {
  if (status === 'succeeded') return 'success';
  if (status === 'cancelled') return 'warn';
  if (status === 'failed' || status === 'timed-out' || status === 'interrupted') return 'error';
  return 'info';
}

/**
 * The console lines of a /ws message, the web console's mapping: `log` as sent, `build-output`
 * (stdout) info and `build-error` (stderr) warn — tools print progress and notices on stderr, and
 * the daemon stores stderr as warn too — and a line for each stage and each build's end.
 */
export function consoleLinesOf(message: ServerMessage): Omit<ConsoleLine, 'key' | 'timestamp'>[] {
  const project = 'projectName' in message && message.projectName ? `${message.projectName}: ` : '';
  switch (message.type) {
    case 'log':
      return splitOutput(message.message).map((text) => ({
        level: message.level,
        botName: sanitizeLine(message.botName) || DEFAULT_BOT_NAME,
        text,
      }));
    case 'build-output':
    case 'build-error':
      return splitOutput(message.output).map((text) => ({
        level: message.type === 'build-output' ? 'info' : 'warn',
        botName: DEFAULT_BOT_NAME,
        text,
      }));
    case 'build-stage':
      return [
        {
          level: stageLevel(message.stage),
          botName: DEFAULT_BOT_NAME,
          text: `${project}${STAGE_LABELS[message.stage]}`,
        },
      ];
    case 'build-finished': {
      const extras = [
        message.cacheHit ? 'cache hit' : null,
        message.previewUrl ? `preview at ${message.previewUrl}` : null,
      ]
        .filter(Boolean)
        .join(', ');
      return [
        {
          level: statusLevel(message.status),
          botName: DEFAULT_BOT_NAME,
          text: `${project}build ${message.status}${extras ? ` (${extras})` : ''}`,
        },
      ];
    }
    default:
      return [];
  }
}

const LogsContext = createContext<readonly ConsoleLine[] | null>(null);

/** Collects the console lines for the whole session (the pane filters what it shows). */
export function LogsProvider({ children }: { children: ReactNode }) {
  const lines = useBatchedList<ConsoleLine>(LOG_BUFFER_LINES);
  const nextKey = useRef(0);
  const { push } = lines;
  useMessages((message) => {
    const timestamp = ('timestamp' in message && message.timestamp) || new Date().toISOString();
    push(consoleLinesOf(message).map((line) => ({ ...line, key: nextKey.current++, timestamp })));
  });
  return <LogsContext.Provider value={lines.items}>{children}</LogsContext.Provider>;
}

export function useLogs(): readonly ConsoleLine[] {
  const value = useContext(LogsContext);
  if (value === null) throw new Error('useLogs must be used inside <LogsProvider>');
  return value;
}
