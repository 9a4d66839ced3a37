import { isFinished, type Build, type ClientStore, type ServerMessage } from '@forge/shared';
import type { BuildTracker } from './build-tracker.ts';
import type { LiveFeed } from './live-feed.ts';
import type { BuildSource } from './source.ts';
import { LOG_PAGE_SIZE } from './stored-log.ts';
import { startWatch } from './watch.ts';

/** Polling interval while /ws is down (or never came up). */
export const POLL_MS = 1_000;
/** A look at the build record (and the stored log) even while /ws is up: a lost event must not leave us waiting. */
export const SAFETY_POLL_MS = 10_000;
export { LOG_PAGE_SIZE };

export interface WatchBuildOptions {
  source: Pick<BuildSource, 'getBuild' | 'getLogs'>;
  /** /ws, greeted before the build was started; undefined = polling only. */
  feed?: LiveFeed;
  /** Where /ws messages and REST reads of the build are folded in; print from it (build-tracker.ts). */
  store: ClientStore;
  buildId: string;
  /**
   * The tracker printing the build's log from the store: given, the stored log is read too, from
   * the last line it has shown, whenever a gap, a lost connection or the end calls for it.
   */
  log?: BuildTracker;
  onNotice?: (text: string) => void;
  /** Stops watching (Ctrl+C, --timeout): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  pollMs?: number;
  safetyPollMs?: number;
  unreachableGraceMs?: number;
  pageSize?: number;
}

/** /ws messages saying that the build has ended. */
const isEnd = (message: ServerMessage): boolean =>
  message.type === 'build-finished' ||
  message.type === 'build_complete' ||
  (message.type === 'build-stage' && isFinished(message.status));

/**
 * Read a build's stored log into the store from the last line `log` has shown, page by page, up to
 * its end. A page that says the daemon's cap was reached, read to the end, tells `log` where the
 * stored lines end (the rest are streamed only). The build must be in the store (its record).
 */
export async function readStoredLog(
  source: Pick<BuildSource, 'getLogs'>,
  store: ClientStore,
  buildId: string,
  log: BuildTracker,
  pageSize = LOG_PAGE_SIZE,
): Promise<void> {
  let after = log.shownSeq;
  for (;;) {
    const page = await source.getLogs(buildId, { after, limit: pageSize });
    store.dispatch({ type: 'log-page', buildId, entries: page.entries });
    // A short page is the end; a `next` that does not move would loop forever.
    const end = page.entries.length < pageSize || page.next <= after;
    if (end) {
      if (page.truncated) log.storedLogEnds(Math.max(after, page.next));
      return;
    }
    after = page.next;
  }
}

/**
 * Follow a build to its end and resolve with its final record. /ws messages of the build and what
 * is read from the daemon — the record, pages of the stored log — are folded into `store`, and the
 * caller prints from it. The record is read at once (a build that ended before we looked is seen),
 * when /ws says the build ended, after every reconnect, every second while /ws is down and every
 * 10 s regardless; the stored log after each of those, and when lines are missing between what
 * /ws delivered. A finished record ends the watch once every stored line has been read.
 */
export function watchBuild(options: WatchBuildOptions): Promise<Build> {
  const { source, feed, store, buildId, log } = options;
  const pollMs = options.pollMs ?? POLL_MS;
  const safetyPollMs = options.safetyPollMs ?? SAFETY_POLL_MS;
  const interval = () => (feed?.connected ? safetyPollMs : pollMs);
  let recordDue = true;
  let recordAt = 0;
  let pagesDue = false;
  // A gap is read once from where it starts; a gap that the read did not fill waits for the next poll.
  let gapReadFrom: number | undefined;
  let askedAboutLive = false;

  const watch = startWatch<Build>({
    check: async () => {
      let record: Build | undefined;
      if (recordDue || Date.now() - recordAt >= interval()) {
        recordDue = false;
        recordAt = Date.now();
        record = await source.getBuild(buildId);
        store.dispatch({ type: 'build-record', build: record });
      }
      // Read after the record: a finished build has stored all of its lines by then.
      if (log && (record || pagesDue)) {
        pagesDue = false;
        await readStoredLog(source, store, buildId, log, options.pageSize);
      }
      return record && isFinished(record.status) ? record : undefined;
    },
    delayMs: interval,
    signal: options.signal,
    onNotice: options.onNotice,
    unreachableGraceMs: options.unreachableGraceMs,
  });

  const unsubscribe = [
    feed?.onMessage((message) => {
      const id = 'buildId' in message ? message.buildId : undefined;
      if (id !== undefined && id !== buildId) return;
      if (id === buildId) store.receive(message);
      if (isEnd(message)) {
        // Of this build, or of a build the message does not name: a needless look is cheap.
        recordDue = true;
        watch.trigger();
      }
    }),
    feed?.onStatus((status) => {
      if (status === 'down') {
        options.onNotice?.(
          `Lost the live connection to the daemon; checking ${log ? 'for new lines' : 'the build'} every second.`,
        );
      }
      // Up again: the events of the gap are lost, look now. Down: re-arm the timer at the faster pace.
      recordDue = true;
      pagesDue = true;
      watch.trigger();
    }),
    log &&
      store.subscribe(() => {
        log.update();
        let wake = false;
        if (log.hasGap && gapReadFrom !== log.shownSeq) {
          gapReadFrom = log.shownSeq;
          pagesDue = true;
          wake = true;
        }
        if (log.liveWaiting && !askedAboutLive) {
          // Lines the daemon did not store: the record says whether its cap was reached.
          askedAboutLive = true;
          recordDue = true;
          wake = true;
        }
        if (wake) watch.trigger();
      }),
  ];
  return watch.result.finally(() => {
    for (const off of unsubscribe) if (off) off();
  });
}
