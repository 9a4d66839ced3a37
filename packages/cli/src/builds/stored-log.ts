import type { Build, LogLine } from '@forge/shared';
import type { BuildSource } from './source.ts';

/** Stored log entries asked for per request. */
export const LOG_PAGE_SIZE = 1_000;

export interface StoredLogReport {
  /** Each stored line, in seq order from the first, without gaps, once. */
  onLine: (line: LogLine) => void;
  /** Once, after the last stored line, when the daemon's cap cut the log. */
  onCapped?: () => void;
}

/**
 * Print a build's stored log as it is now (`forge logs` without -f): page by page, each line once
 * and in seq order from the first; a line past a gap is held (as the client store holds it), and a
 * log the daemon's cap cut is told once after its last stored line. This is what trackBuild and
 * readStoredLog print for a build that is not followed (stored-log.test.ts holds the two to the same
 * output), without the client store: its module loads the protocol's schemas, ~30 ms that a read
 * command cannot afford. Following a build (live lines, reconnects) stays with the store.
 */
export async function printStoredLog(
  source: Pick<BuildSource, 'getLogs'>,
  build: Pick<Build, 'id' | 'logTruncated' | 'logCount'>,
  report: StoredLogReport,
  pageSize = LOG_PAGE_SIZE,
): Promise<void> {
  let shown = 0;
  // The record says where the stored lines end for good; a last page that says so, too.
  let end = build.logTruncated ? build.logCount : undefined;
  let cappedTold = false;
  const held = new Map<number, LogLine>();
  const update = () => {
    for (let line = held.get(shown + 1); line; line = held.get(shown + 1)) {
      held.delete(shown + 1);
      shown += 1;
      report.onLine(line);
    }
    if (!cappedTold && end !== undefined && shown >= end) {
      cappedTold = true;
      report.onCapped?.();
    }
  };

  update();
  let after = 0;
  for (;;) {
    const page = await source.getLogs(build.id, { after, limit: pageSize });
    for (const entry of page.entries) {
      if (entry.seq > shown && !held.has(entry.seq)) {
        held.set(entry.seq, {
          seq: entry.seq,
          timestamp: entry.timestamp,
          level: entry.level,
          botName: entry.botName,
          text: entry.message,
          key: `s${entry.seq}`,
        });
      }
    }
    update();
    // A short page is the end; a `next` that does not move would loop forever.
    if (page.entries.length < pageSize || page.next <= after) {
      if (page.truncated) {
        end ??= Math.max(after, page.next);
        update();
      }
      return;
    }
    after = page.next;
  }
}
