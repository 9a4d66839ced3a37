import {
  contiguousAfter,
  createClientStore,
  type Build,
  type ClientStore,
  type LogLine,
  type Stage,
  type StageEvent,
} from '@forge/shared';

/**
 * Lines the CLI's store keeps per build: more than the daemon ever stores for one build (20,000),
 * so a page read to fill a gap is never older than everything kept, and live-only lines that
 * arrive while the stored ones are still being read do not push unprinted ones out.
 */
export const LOG_LINES_KEPT = 30_000;

/** The client model as the CLI holds it while it follows a build (see build-watch.ts). */
export const createBuildStore = (): ClientStore => createClientStore({ linesPerBuild: LOG_LINES_KEPT });

/** What is new about a build in the store, each thing once and in order. */
export interface BuildReport {
  /** Each stage the build entered, in order (also those entered before following began). */
  onStage?: (event: StageEvent, build: Build) => void;
  /**
   * Each line of the build's log: the stored ones in seq order without gaps, then — once every
   * stored line is shown and the daemon's per-build cap cut the log — the lines it only streamed.
   * Without it no line is tracked.
   */
  onLine?: (line: LogLine) => void;
  /** Once, after the last stored line, when the daemon's cap cut the log. */
  onCapped?: () => void;
}

export interface BuildTracker {
  /** Every stored line up to this seq has been reported (0: none yet). */
  readonly shownSeq: number;
  /** Stored lines past a gap are held: a page of the stored log would fill it. */
  readonly hasGap: boolean;
  /** Live-only lines are held until the stored log is known to be capped and shown to its end. */
  readonly liveWaiting: boolean;
  /** The stored log ends at `seq` for good (a page said the cap was reached and nothing follows). */
  storedLogEnds(seq: number): void;
  /** Report what the store holds now that was not reported yet (it does so on every change too). */
  update(): void;
  close(): void;
}

/** Live-only lines are keyed `l<n>`, n counting up as they arrive (log-lines.ts). */
const liveIndex = (line: LogLine): number => Number(line.key.slice(1));

/**
 * Reports a build from a ClientStore as it changes: stages once the record has been read (so the
 * stages entered before following began come first), and log lines in the order a reader expects,
 * whichever of /ws and the stored log delivered them first.
 */
export function trackBuild(store: ClientStore, buildId: string, report: BuildReport): BuildTracker {
  const stagesShown = new Set<Stage>();
  let shownSeq = 0;
  let liveShown = 0;
  let storedEnd: number | undefined;
  let cappedTold = false;
  let hasGap = false;
  let liveWaiting = false;

  const update = () => {
    const view = store.getState().builds[buildId];
    if (!view) return;
    if (view.fromRecord && report.onStage) {
      // A build passes each stage at most once (the machine has no cycles): the name identifies it.
      for (const event of view.build.stages) {
        if (stagesShown.has(event.stage)) continue;
        stagesShown.add(event.stage);
        report.onStage(event, view.build);
      }
    }
    if (!report.onLine) return;
    if (view.fromRecord && view.build.logTruncated) storedEnd ??= view.build.logCount;
    const { lines } = view.log;
    for (const line of contiguousAfter(view.log, shownSeq)) {
      shownSeq = line.seq!;
      report.onLine(line);
    }
    let lastStored = 0;
    for (let i = lines.length - 1; i >= 0; i--) {
      const seq = lines[i]!.seq;
      if (seq !== null) {
        lastStored = seq;
        break;
      }
    }
    hasGap = lastStored > shownSeq;
    const live = lines.filter((l) => l.seq === null && liveIndex(l) > liveShown);
    if (storedEnd === undefined || shownSeq < storedEnd) {
      liveWaiting = live.length > 0;
      return;
    }
    liveWaiting = false;
    if (!cappedTold) {
      cappedTold = true;
      report.onCapped?.();
    }
    for (const line of live) {
      liveShown = liveIndex(line);
      report.onLine(line);
    }
  };

  const unsubscribe = store.subscribe(update);
  update();
  return {
    get shownSeq() {
      return shownSeq;
    },
    get hasGap() {
      return hasGap;
    },
    get liveWaiting() {
      return liveWaiting;
    },
    storedLogEnds(seq) {
      storedEnd ??= seq;
      update();
    },
    update,
    close: unsubscribe,
  };
}
