import { isFinished, type Build, type BuildLogsResponse, type ServerMessage } from '@forge/shared';
import type { LiveFeed } from './live-feed.ts';
import type { BuildSource } from './source.ts';
import { startWatch } from './watch.ts';
import { POLL_MS, SAFETY_POLL_MS } from './wait-for-build.ts';

/** A stored log line of a build (GET /api/builds/:id/logs). */
export type BuildLogEntry = BuildLogsResponse['entries'][number];

/** A line seen only on /ws (past the daemon's per-build log cap): no seq, no id. */
export type LiveLogEntry = Pick<BuildLogEntry, 'timestamp' | 'level' | 'botName' | 'message'>;

/** Entries asked for per request. */
export const LOG_PAGE_SIZE = 1_000;
/** /ws line messages held while the stored log is being read (only a log past its cap needs them). */
const MAX_HELD_MESSAGES = 20_000;

/**
 * Reads a build's stored log forward, each entry exactly once: entries at or below the last seq
 * seen are skipped, whatever the daemon's `after` does at page edges.
 */
export class LogReader {
  private next: number | undefined;
  private lastSeq = -Infinity;
  private complete = false;
  /** The last entry read. */
  last: BuildLogEntry | undefined;

  constructor(
    private readonly source: Pick<BuildSource, 'getLogs'>,
    private readonly buildId: string,
    private readonly onEntry: (entry: BuildLogEntry) => void,
    /** Told once, after the last stored entry, when the daemon's per-build cap cut the log. */
    private readonly onTruncated: () => void = () => undefined,
    private readonly pageSize = LOG_PAGE_SIZE,
  ) {}

  /**
   * Every stored entry has been read and the daemon's cap was reached: it stores no more lines for
   * this build, later ones exist only on /ws.
   */
  get capped(): boolean {
    return this.complete;
  }

  /** Read every entry stored so far that was not read yet. */
  async drain(): Promise<void> {
    for (;;) {
      const page = await this.source.getLogs(this.buildId, {
        ...(this.next === undefined ? {} : { after: this.next }),
        limit: this.pageSize,
      });
      for (const entry of page.entries) {
        if (entry.seq <= this.lastSeq) continue;
        this.lastSeq = entry.seq;
        this.last = entry;
        this.onEntry(entry);
      }
      const advanced = this.next === undefined || page.next > this.next;
      this.next = page.next;
      // A short page is the end; a `next` that does not move would loop forever.
      if (page.entries.length < this.pageSize || !advanced) {
        if (page.truncated && !this.complete) {
          this.complete = true;
          this.onTruncated();
        }
        return;
      }
    }
  }
}

export interface FollowLogsOptions {
  source: Pick<BuildSource, 'getLogs' | 'getBuild'>;
  feed?: LiveFeed;
  buildId: string;
  /** Reads the stored log, from where it is (all of it, for a new reader). */
  reader: LogReader;
  /**
   * Lines past the daemon's per-build log cap, which it streams but does not store: shown after the
   * last stored line, each once (lines sent before it are left out; those of the one batch that
   * crossed the cap may be missing).
   */
  onLiveEntry?: (entry: LiveLogEntry) => void;
  onNotice?: (text: string) => void;
  signal?: AbortSignal;
  pollMs?: number;
  safetyPollMs?: number;
  unreachableGraceMs?: number;
}

const LINE_EVENTS = new Set<ServerMessage['type']>(['build-output', 'build-error', 'log']);
const END_EVENTS = new Set<ServerMessage['type']>(['build-finished', 'build-stage']);

/** The lines of a /ws message that are not (and will never be) in the store, as log entries. */
function liveLines(message: ServerMessage, botName: string): LiveLogEntry[] {
  const timestamp = (message as { timestamp?: string }).timestamp;
  if (timestamp === undefined) return [];
  if (message.type === 'log') {
    // An id means it was stored: it is read from the store.
    if (message.id !== undefined) return [];
    return [{ timestamp, level: message.level, botName: message.botName, message: message.message }];
  }
  if (message.type === 'build-output' || message.type === 'build-error') {
    // Output frames carry no bot: it is the one whose lines were stored last. stderr is stored as warn.
    const level = message.type === 'build-error' ? 'warn' : 'info';
    return message.output.split('\n').map((text) => ({ timestamp, level, botName, message: text }));
  }
  return [];
}

/**
 * Follow a build's log until the build has finished; resolves with its final record once every
 * stored line has been read. Lines are read from the store (in order, with their level and bot,
 * de-duplicated by seq); a /ws line message for this build only says "read now", so a line written
 * while the stored ones are being read is neither lost nor shown twice. /ws is listened to before
 * the first read, so when the store turns out to be capped, the lines streamed meanwhile are there.
 */
export function followLogs(options: FollowLogsOptions): Promise<Build> {
  const { source, feed, buildId, reader } = options;
  const pollMs = options.pollMs ?? POLL_MS;
  const safetyPollMs = options.safetyPollMs ?? SAFETY_POLL_MS;
  // Look at the build record on the first check, after its end events, and once per poll interval
  // (line events alone never make us read it: during a log flood that would double the requests).
  let statusDue = true;
  let statusAt = 0;
  const interval = () => (feed?.connected ? safetyPollMs : pollMs);
  // /ws lines of this build not yet known to be stored or not (held until the store is read).
  let held: ServerMessage[] = [];

  const showLive = (messages: ServerMessage[]) => {
    const last = reader.last;
    if (!last) return;
    for (const message of messages) {
      for (const entry of liveLines(message, last.botName)) {
        if (entry.timestamp > last.timestamp) options.onLiveEntry?.(entry);
      }
    }
  };
  const afterRead = () => {
    if (reader.capped) {
      showLive(held);
      held = [];
      return;
    }
    // Lines sent before the last stored one are in the store: no need to hold them.
    const stored = reader.last?.timestamp;
    if (stored !== undefined)
      held = held.filter((m) => ((m as { timestamp?: string }).timestamp ?? '') > stored);
  };

  const watch = startWatch<Build>({
    check: async () => {
      let finished: Build | undefined;
      if (statusDue || Date.now() - statusAt >= interval()) {
        statusDue = false;
        statusAt = Date.now();
        const build = await source.getBuild(buildId);
        if (isFinished(build.status)) finished = build;
      }
      // Read after the status: a finished build has stored all of its lines by then.
      await reader.drain();
      afterRead();
      return finished;
    },
    delayMs: interval,
    signal: options.signal,
    onNotice: options.onNotice,
    unreachableGraceMs: options.unreachableGraceMs,
  });

  const unsubscribe = [
    feed?.onMessage((message) => {
      const id = (message as { buildId?: string }).buildId;
      if (id !== undefined && id !== buildId) return;
      // Shown directly only when surely ours; any line message may mean new stored lines.
      if (id === buildId && LINE_EVENTS.has(message.type)) {
        if (reader.capped) showLive([message]);
        else if (held.length < MAX_HELD_MESSAGES) held.push(message);
      }
      if (END_EVENTS.has(message.type)) statusDue = true;
      if (END_EVENTS.has(message.type) || LINE_EVENTS.has(message.type)) watch.trigger();
    }),
    feed?.onStatus((status) => {
      if (status === 'down') {
        options.onNotice?.('Lost the live connection to the daemon; checking for new lines every second.');
      }
      statusDue = true;
      watch.trigger();
    }),
  ];
  return watch.result.finally(() => {
    for (const off of unsubscribe) off?.();
  });
}
