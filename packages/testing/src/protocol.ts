import {
  FINAL_STAGE,
  ServerMessage,
  type BuildOutput,
  type BuildStatus,
  type FinishedStatus,
  type LogLevel,
  type Stage,
} from '@forge/shared';

import { at } from './builds.ts';

/**
 * /ws messages of one build as the daemon sends them (the shape of a real upload's stream), each
 * parsed by the protocol schema, so a test cannot feed the app something the daemon never says.
 * Times are fixture times (`at(ms)`).
 */
export function buildStream(buildId: string, projectName: string) {
  const about = { buildId, projectName };
  const parse = (message: ServerMessage): ServerMessage => ServerMessage.parse(message);
  return {
    /** The daemon's first frames of an upload: the received line, bot assignment, the first bots. */
    start: (bots: readonly string[] = ['BuildBot', 'UiBot'], ms = 0): ServerMessage[] => [
      parse({
        type: 'log',
        ...about,
        botName: 'ExtractBot',
        level: 'info',
        message: `Receiving ${projectName}.zip as project "${projectName}".`,
        seq: 1,
        stage: 'starting',
        timestamp: at(ms),
      }),
      parse({ type: 'build-stage', ...about, status: 'running', stage: 'bot-assignment', timestamp: at(ms) }),
      ...bots.map((botName) => parse({ type: 'bot-assigned', ...about, botName, stage: 'bot-assignment' })),
    ],
    stage: (stage: Stage, ms = 0, status: BuildStatus = 'running'): ServerMessage =>
      parse({ type: 'build-stage', ...about, status, stage, timestamp: at(ms) }),
    /** Command output: one frame of one or more lines, the first stored as `seq`. */
    output: (output: string, seq: number, ms = 0, botName = 'BuildBot'): ServerMessage =>
      parse({
        type: 'build-output',
        ...about,
        botName,
        output,
        seq,
        stage: 'build-start',
        timestamp: at(ms),
      }),
    stderr: (output: string, seq: number, ms = 0, botName = 'BuildBot'): ServerMessage =>
      parse({ type: 'build-error', ...about, botName, output, seq, stage: 'build-start', timestamp: at(ms) }),
    log: (botName: string, level: LogLevel, message: string, seq: number, ms = 0): ServerMessage =>
      parse({ type: 'log', ...about, botName, level, message, seq, timestamp: at(ms) }),
    complete: (files: string[], ms = 0): ServerMessage => {
      const buildOutput: BuildOutput = { projectName, buildPath: `/forge/outputs/${projectName}`, files };
      return parse({
        type: 'build_complete',
        ...about,
        buildOutput,
        stage: 'integration-available',
        timestamp: at(ms),
      });
    },
    /** build-finished at the machine's final stage for `status`. */
    finished: (status: FinishedStatus, ms = 0, stage: Stage = FINAL_STAGE[status]): ServerMessage =>
      parse({
        type: 'build-finished',
        ...about,
        status,
        stage,
        previewUrl: null,
        cacheHit: false,
        error: status === 'failed' ? { code: 'BUILD_FAILED', message: 'npm run build exited with 1.' } : null,
        cancelReason: status === 'cancelled' ? 'user' : null,
        endedAt: at(ms),
        durationMs: ms,
      }),
  };
}
