import type { BuildStatus } from '../domain/builds.ts';
import type { LiveMessage } from '../domain/entities.ts';
import type { LogLevel } from '../domain/log.ts';
import { DEFAULT_BOT_NAME } from '../domain/log-levels.ts';
import type { Stage } from '../domain/stage.ts';
import { STAGE_LABELS } from '../domain/stage-labels.ts';
import { splitLines } from '../format.ts';
import type { ServerMessage } from '../ws/events.ts';

/** Stage → log level: success and failure stand out, the rest is info. */
export function stageLevel(stage: Stage): LogLevel {
  switch (stage) {
    case 'build-success':
    case 'integration-available':
      return 'success';
    case 'build-failed':
    case 'build-timeout':
      return 'error';
    default:
      return 'info';
  }
}

/** Final build status → log level. */
export function buildStatusLevel(status: BuildStatus): LogLevel {
  switch (status) {
    case 'succeeded':
      return 'success';
    case 'failed':
    case 'timed-out':
    case 'interrupted':
      return 'error';
    case 'cancelled':
      return 'warn';
    default:
      return 'info';
  }
}

/** A line of the app-wide console before it gets its id and time. */
export interface ConsoleLine {
  level: LogLevel;
  botName: string;
  message: string;
}

/**
 * The app-wide console lines a /ws message produces (FixIt console, Console screen, TUI logs):
 * every log and output line, each stage a build enters, bots taking jobs and how builds end.
 */
export function consoleLinesOf(message: ServerMessage): ConsoleLine[] {
  const project = 'projectName' in message && message.projectName ? `${message.projectName}: ` : '';
  switch (message.type) {
    case 'log':
      return [
        { level: message.level, botName: message.botName || DEFAULT_BOT_NAME, message: message.message },
      ];
    case 'build-output':
    case 'build-error': {
      const level: LogLevel = message.type === 'build-error' ? 'warn' : 'info';
      const botName = message.botName ?? DEFAULT_BOT_NAME;
      return splitLines(message.output).map((line) => ({ level, botName, message: line }));
    }
    case 'build-stage':
      return [
        {
          level: stageLevel(message.stage),
          botName: DEFAULT_BOT_NAME,
          message: `${project}${STAGE_LABELS[message.stage]}`,
        },
      ];
    case 'bot-assigned':
      return [{ level: 'info', botName: message.botName, message: `${project}assigned to the build` }];
    case 'build-finished': {
      const extras = [
        message.cacheHit ? 'cache hit' : null,
        message.previewUrl ? `preview at ${message.previewUrl}` : null,
      ].filter(Boolean);
      const why = message.error ? `: ${message.error.message}` : '';
      return [
        {
          level: buildStatusLevel(message.status),
          botName: DEFAULT_BOT_NAME,
          message: `${project}build ${message.status}${extras.length ? ` (${extras.join(', ')})` : ''}${why}`,
        },
      ];
    }
    case 'build-rollback':
      return [
        {
          level: 'success',
          botName: DEFAULT_BOT_NAME,
          message: `${project}rolled back to build ${message.currentBuildId}${message.previewUrl ? ` (preview at ${message.previewUrl})` : ''}`,
        },
      ];
    default:
      return [];
  }
}

/**
 * The Live Development viewer's record of a build message (a live message, docs/product.md#entities); null
 * for others.
 */
export function liveMessageOf(message: ServerMessage, at: string): LiveMessage | null {
  const timestamp = ('timestamp' in message && message.timestamp) || at;
  switch (message.type) {
    case 'rapid-build-start':
    case 'build-stage':
      return { type: message.type, projectName: message.projectName, stage: message.stage, timestamp };
    case 'bot-assigned':
      return {
        type: message.type,
        projectName: message.projectName,
        stage: message.stage,
        botName: message.botName,
        timestamp,
      };
    case 'build-output':
    case 'build-error':
      return {
        type: message.type,
        projectName: message.projectName,
        stage: message.stage,
        output: message.output,
        timestamp,
      };
    case 'build_complete':
      return {
        type: message.type,
        projectName: message.projectName ?? message.buildOutput.projectName,
        stage: 'integration-available',
        buildOutput: message.buildOutput,
        timestamp,
      };
    case 'log':
      // Only build logs belong in the viewer; a bare SYSTEM line (e.g. non-JSON text) does not.
      if (!message.buildId && !message.projectName) return null;
      return {
        type: message.type,
        projectName: message.projectName,
        stage: message.stage,
        botName: message.botName,
        message: message.message,
        timestamp,
      };
    case 'build-finished':
      return {
        type: message.type,
        projectName: message.projectName,
        stage: message.stage,
        message: `Build ${message.status}`,
        timestamp,
      };
    default:
      return null;
  }
}
