import { isFinished, type Build, type ServerMessage, type StageEvent } from '@forge/shared';
import type { LiveFeed } from './live-feed.ts';
import type { BuildSource } from './source.ts';
import { startWatch } from './watch.ts';

/** Polling interval while /ws is down (or never came up). */
export const POLL_MS = 1_000;
/** A look at the build record even while /ws is up: a lost event must not leave us waiting. */
export const SAFETY_POLL_MS = 10_000;

export interface WaitForBuildOptions {
  source: Pick<BuildSource, 'getBuild'>;
  /** /ws, greeted before the build was started; undefined = polling only. */
  feed?: LiveFeed;
  buildId: string;
  /** Each stage the build entered, once, in order (also stages entered before the wait began). */
  onStage?: (event: StageEvent, build: Build) => void;
  onNotice?: (text: string) => void;
  /** Stops waiting (Ctrl+C, and later `--timeout`): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  pollMs?: number;
  safetyPollMs?: number;
  unreachableGraceMs?: number;
}

/** /ws messages after which the build record may have changed. Log lines are not among them. */
const RECORD_EVENTS = new Set<ServerMessage['type']>([
  'build-stage',
  'build-finished',
  'build_complete',
  'bot-assigned',
]);

const concerns = (message: ServerMessage, buildId: string): boolean =>
  RECORD_EVENTS.has(message.type) &&
  // A build message without a buildId may be ours; a needless look at the record is cheap.
  ((message as { buildId?: string }).buildId ?? buildId) === buildId;

/**
 * Follow a build until it has finished and resolve with its final record. The record is the source
 * of truth (stages with times, status); /ws messages only say when to look at it again. It is read
 * at once (a build that finished before we looked, or whose build-finished was missed, is seen), on
 * every relevant message, after every reconnect, every second while /ws is down, and every 10 s
 * regardless.
 */
export function waitForBuild(options: WaitForBuildOptions): Promise<Build> {
  const { source, feed, buildId } = options;
  const pollMs = options.pollMs ?? POLL_MS;
  const safetyPollMs = options.safetyPollMs ?? SAFETY_POLL_MS;
  let reported = 0;

  const watch = startWatch<Build>({
    check: async () => {
      const build = await source.getBuild(buildId);
      for (; reported < build.stages.length; reported++) options.onStage?.(build.stages[reported]!, build);
      return isFinished(build.status) ? build : undefined;
    },
    delayMs: () => (feed?.connected ? safetyPollMs : pollMs),
    signal: options.signal,
    onNotice: options.onNotice,
    unreachableGraceMs: options.unreachableGraceMs,
  });

  const unsubscribe = [
    feed?.onMessage((message) => {
      if (concerns(message, buildId)) watch.trigger();
    }),
    feed?.onStatus((status) => {
      if (status === 'down') {
        options.onNotice?.('Lost the live connection to the daemon; checking the build every second.');
      }
      // Up again: look now (events of the gap are lost). Down: re-arm the timer at the faster pace.
      watch.trigger();
    }),
  ];
  const cleanup = () => {
    for (const off of unsubscribe) off?.();
  };
  return watch.result.finally(cleanup);
}
