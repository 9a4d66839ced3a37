import {
  canReach,
  canTransition,
  endState,
  isFinished,
  type Build,
  type BuildError,
  type BuildState,
  type BuildStep,
  type CancelReason,
  type Diagnosis,
  type FinishedStatus,
  type LogLevel,
  type ServerMessage,
  type StepDebug,
  type StepName,
  type StepStatus,
} from '@forge/shared';
import type { Logger } from '../logging/logger.ts';
import { LineBatcher } from '../capabilities/exec/index.ts';
import type { RecordPatch } from './stages/types.ts';
import type { BuildRepo, LogRow } from './build-repo.ts';

/** How often the end of a build that could not be stored (disk full) is tried again. */
const FINAL_SAVE_RETRY_MS = 2_000;

/** Stored log lines per build; past it one marker line is stored and the rest only streams live. */
export const MAX_STORED_LOG_LINES = 20_000;

export interface BuildRunDeps {
  repo: Pick<BuildRepo, 'lastLogSeq' | 'save' | 'appendLogs'>;
  broadcast: (message: ServerMessage) => void;
  logger: Logger;
  now?: () => Date;
}

interface PendingLine {
  ts: string;
  level: LogLevel;
  botName: string;
  message: string;
  stream: 'stdout' | 'stderr';
}

/** A move the build machine does not allow: a bug in the engine, never a user error. */
export class IllegalTransitionError extends Error {
  constructor(buildId: string, from: BuildState, to: BuildState) {
    super(
      `Build ${buildId} cannot move from (${from.status}, ${from.stage}) to (${to.status}, ${to.stage}).`,
    );
    this.name = 'IllegalTransitionError';
  }
}

/** A step in flight: `finish` records how it ended (once). */
export interface StepHandle {
  readonly name: StepName;
  readonly attempt: number;
  finish(status: Exclude<StepStatus, 'running'>, detail: string | null, debug?: StepDebug | null): BuildStep;
}

/** How a build ends, beside its status: why, and (cancelled) on whose word. */
export interface Ending {
  error?: BuildError;
  cancelReason?: CancelReason;
  /** ScanBot's reading of the failure. */
  diagnosis?: Diagnosis;
}

/**
 * One build in flight and the only writer of its record. Its (status, stage) moves only through
 * `to()`, which refuses any move the build machine (shared/domain/build-machine.ts) does not allow,
 * stores the change and broadcasts it — `build-stage` for every move, and `build-finished` once
 * when the build reaches a final state. Steps, log lines and the fields stages produce go through
 * here too, so the record, /ws and every client tell the same story.
 */
export class BuildRun {
  readonly #abort = new AbortController();
  readonly #deps: Required<BuildRunDeps>;
  #build: Build;
  #seq: number;
  #batcher: LineBatcher<PendingLine>;
  readonly #done: Promise<Build>;
  #resolveDone!: (b: Build) => void;
  readonly #stored: Promise<void>;
  #resolveStored!: () => void;

  constructor(deps: BuildRunDeps, build: Build) {
    this.#deps = { now: () => new Date(), ...deps };
    this.#build = structuredClone(build);
    // A recovered build already has stored lines: continue after them.
    this.#seq = deps.repo.lastLogSeq(build.id);
    this.#batcher = new LineBatcher((lines) => this.#flushLines(lines));
    this.#done = new Promise((resolve) => (this.#resolveDone = resolve));
    this.#stored = new Promise((resolve) => (this.#resolveStored = resolve));
    if (isFinished(build.status)) {
      this.#resolveDone(this.snapshot());
      this.#resolveStored();
    }
  }

  get id(): string {
    return this.#build.id;
  }
  get projectName(): string {
    return this.#build.projectName;
  }
  get signal(): AbortSignal {
    return this.#abort.signal;
  }
  get state(): BuildState {
    return { status: this.#build.status, stage: this.#build.stage };
  }
  get finished(): boolean {
    return isFinished(this.#build.status);
  }
  /** Resolves with the final record once the build has finished, whatever the outcome. */
  get done(): Promise<Build> {
    return this.#done;
  }
  /**
   * Resolves once the store holds the build's end. Later than `done` only when the disk was full
   * at the end: the end is then tried again until it is stored, and until then only this object
   * knows the build is over.
   */
  get stored(): Promise<void> {
    return this.#stored;
  }
  /** A copy of the record as it is now. */
  snapshot(): Build {
    return structuredClone(this.#build);
  }

  /** Ask the build to stop: every step sees its signal abort with `reason`. */
  cancel(reason: CancelReason): void {
    if (!this.#abort.signal.aborted) this.#abort.abort(reason);
  }

  /** Why the build was asked to stop (user unless said otherwise), or null. */
  get cancelReason(): CancelReason | null {
    if (!this.signal.aborted) return null;
    const r = this.signal.reason as unknown;
    return r === 'superseded' || r === 'timeout' || r === 'shutdown' ? r : 'user';
  }

  #context() {
    return { projectName: this.#build.projectName, buildId: this.#build.id, stage: this.#build.stage };
  }

  #save(): void {
    this.#deps.repo.save(this.#build);
  }

  /**
   * Store the build's end. A build must never stay `running` because its end could not be written
   * (SQLITE_FULL on a full disk): the end holds in memory, is broadcast, and is stored as soon as
   * the disk has room again (or the next start marks the build interrupted).
   */
  #saveEnd(): void {
    try {
      this.#save();
      this.#resolveStored();
    } catch (err) {
      this.#deps.logger.error({ err, buildId: this.id }, 'could not store the end of the build; retrying');
      setTimeout(() => this.#saveEnd(), FINAL_SAVE_RETRY_MS).unref();
    }
  }

  /**
   * Move the build to `next`. The only writer of status and stage: refuses a move the machine does
   * not allow (IllegalTransitionError), records the stage with its time, and broadcasts it; on a
   * final state also ends the build (end time, unfinished steps closed, `build-finished`).
   */
  to(next: BuildState, ending: Ending = {}): Build {
    const from = this.state;
    if (!canTransition(from, next)) throw new IllegalTransitionError(this.id, from, next);
    const final = isFinished(next.status);
    // Lines still waiting belong to the stage they were printed in.
    if (final) this.#batcher.close();
    else this.#batcher.flush();
    const now = this.#deps.now();
    const at = now.toISOString();
    const b = this.#build;
    b.status = next.status;
    b.stage = next.stage;
    b.stages.push({ stage: next.stage, at });
    if (final) {
      b.endedAt = at;
      b.durationMs = Math.max(0, now.getTime() - Date.parse(b.createdAt));
      if (ending.error) b.error = ending.error;
      if (ending.cancelReason) b.cancelReason = ending.cancelReason;
      if (ending.diagnosis) b.diagnosis = ending.diagnosis;
      const stepEnd: StepStatus =
        next.status === 'cancelled' ? 'cancelled' : next.status === 'timed-out' ? 'timed-out' : 'failed';
      for (const s of b.steps) {
        if (s.status !== 'running') continue;
        s.status = stepEnd;
        s.durationMs = Math.max(0, now.getTime() - Date.parse(s.startedAt));
      }
    }
    if (final) this.#saveEnd();
    else this.#save();
    this.#deps.broadcast({
      type: 'build-stage',
      stage: next.stage,
      status: next.status,
      worker: b.worker,
      projectName: b.projectName,
      buildId: b.id,
      timestamp: at,
    });
    if (final) {
      const snapshot = this.snapshot();
      this.#deps.broadcast({
        type: 'build-finished',
        buildId: snapshot.id,
        projectName: snapshot.projectName,
        status: snapshot.status,
        stage: snapshot.stage,
        previewUrl: snapshot.previewUrl,
        cacheHit: snapshot.cacheHit,
        worker: snapshot.worker,
        error: snapshot.error,
        diagnosis: snapshot.diagnosis,
        repairs: snapshot.repairs,
        cancelReason: snapshot.cancelReason,
        endedAt: at,
        durationMs: snapshot.durationMs,
        verdict: snapshot.verdict,
      });
      this.#resolveDone(snapshot);
    }
    return this.snapshot();
  }

  /** End the build with a finished status at the stage the machine gives it. */
  end(status: FinishedStatus, ending: Ending = {}): Build {
    return this.to(endState(status), ending);
  }

  /**
   * Record fields a stage produced. Never status or stage: those move only through `to()`. A new
   * preview URL is also broadcast (`preview-ready`) the moment it is recorded: the preview is up
   * before the build ends, and clients show it while the tests still run.
   */
  record(patch: RecordPatch): void {
    const preview = patch.previewUrl && patch.previewUrl !== this.#build.previewUrl ? patch.previewUrl : null;
    Object.assign(this.#build, patch);
    this.#save();
    if (preview) {
      this.#deps.broadcast({
        type: 'preview-ready',
        buildId: this.id,
        projectName: this.projectName,
        previewUrl: preview,
        timestamp: this.#deps.now().toISOString(),
      });
    }
  }

  /**
   * Scale-out: take what a worker reports about this build (it runs the same engine on its own copy
   * and sends its record, stored lines and /ws messages back). The worker's record must be reachable
   * along the build machine from here (or no move); lines already stored are skipped, so a post sent
   * twice (its answer lost) changes nothing. Relays the messages once the store holds the change.
   */
  mirror(update: {
    record: Build | null;
    logs: readonly LogRow[];
    messages: readonly ServerMessage[];
  }): void {
    if (this.finished) {
      // What a worker sends after the end (build_complete, a server app's output) is live only.
      for (const message of update.messages) this.#deps.broadcast(message);
      return;
    }
    const rows = update.logs.filter((r) => r.seq > this.#seq).sort((a, b) => a.seq - b.seq);
    if (rows.length) {
      this.#seq = rows.at(-1)!.seq;
      try {
        this.#store(rows);
      } catch (err) {
        this.#deps.logger.error({ err, buildId: this.id }, "could not store a worker's log lines");
      }
    }
    const record = update.record;
    let final = false;
    if (record && record.id === this.id) {
      const from = this.state;
      const next = { status: record.status, stage: record.stage };
      const moves = from.status !== next.status || from.stage !== next.stage;
      // Several moves may have happened on the worker since its last post: forward along the machine only.
      if (moves && !canReach(from, next)) throw new IllegalTransitionError(this.id, from, next);
      final = isFinished(next.status);
      // The coordinator's own fields stay its own: identity, creation, the stored log's count.
      this.#build = {
        ...structuredClone(record),
        id: this.#build.id,
        projectName: this.#build.projectName,
        createdAt: this.#build.createdAt,
        noCache: this.#build.noCache,
        logCount: this.#seq,
        logTruncated: this.#build.logTruncated || record.logTruncated,
      };
      if (final) this.#saveEnd();
      else this.#save();
    } else if (rows.length) {
      this.#save();
    }
    for (const message of update.messages) this.#deps.broadcast(message);
    if (final) this.#resolveDone(this.snapshot());
  }

  /** A bot's own message about the build (not command output): stored and sent as a `log` message. */
  log(botName: string, level: LogLevel, message: string): void {
    this.#batcher.flush();
    const row = this.#nextRow(botName, level, message);
    try {
      if (row) this.#store([row]);
    } catch (err) {
      // A line that cannot be stored (disk full) still streams: how the build ends matters more.
      this.#deps.logger.error({ err, buildId: this.id }, 'could not store a build log line');
    }
    this.#deps.broadcast({
      type: 'log',
      botName,
      level,
      message,
      ...(row ? { id: `${this.id}:${row.seq}`, seq: row.seq } : {}),
      ...this.#context(),
      timestamp: row?.ts ?? this.#deps.now().toISOString(),
    });
  }

  /** A line of command output: batched, stored (stderr as warn), sent as build-output / build-error. */
  output(botName: string, stream: 'stdout' | 'stderr', text: string): void {
    const ts = this.#deps.now().toISOString();
    if (this.finished) {
      // A server app keeps printing after its build ended: live only, never stored against the build.
      this.#deps.broadcast({
        type: stream === 'stdout' ? 'build-output' : 'build-error',
        output: text,
        botName,
        ...this.#context(),
        timestamp: ts,
      });
      return;
    }
    this.#batcher.push({ ts, level: stream === 'stderr' ? 'warn' : 'info', botName, message: text, stream });
  }

  /** Start a step (a bot's job); a step run again after a repair gets the next attempt number. */
  beginStep(name: StepName, botName: string): StepHandle {
    const startedAt = this.#deps.now();
    const attempt = this.#build.steps.filter((s) => s.name === name).length + 1;
    const record: BuildStep = {
      name,
      botName,
      status: 'running',
      startedAt: startedAt.toISOString(),
      durationMs: null,
      detail: null,
      attempt,
      debug: null,
    };
    this.#build.steps.push(record);
    this.#save();
    const index = this.#build.steps.length - 1;
    let ended = false;
    return {
      name,
      attempt,
      finish: (status, detail, debug = null) => {
        const step = this.#build.steps[index]!;
        if (ended || step.status !== 'running') return structuredClone(step);
        ended = true;
        this.#batcher.flush();
        step.status = status;
        step.durationMs = Math.max(0, this.#deps.now().getTime() - startedAt.getTime());
        step.detail = detail;
        step.debug = debug;
        this.#save();
        return structuredClone(step);
      },
    };
  }

  #nextRow(botName: string, level: LogLevel, message: string): LogRow | null {
    if (this.#seq >= MAX_STORED_LOG_LINES) return null;
    this.#seq++;
    const ts = this.#deps.now().toISOString();
    if (this.#seq === MAX_STORED_LOG_LINES) {
      this.#build.logTruncated = true;
      return {
        seq: this.#seq,
        ts,
        level: 'warn',
        botName: 'LogBot',
        message: `Log truncated: only the first ${MAX_STORED_LOG_LINES} lines of this build are stored; the rest streamed live only.`,
      };
    }
    return { seq: this.#seq, ts, level, botName, message };
  }

  #store(rows: LogRow[]): void {
    if (rows.length === 0) return;
    this.#deps.repo.appendLogs(this.id, rows);
    this.#build.logCount = this.#seq;
  }

  #flushLines(lines: PendingLine[]): void {
    const rows: LogRow[] = [];
    // Each line with the seq it is stored under (null past the cap); the cap's marker goes last.
    const seqs: Array<number | null> = [];
    let marker: LogRow | null = null;
    for (const line of lines) {
      const row = this.#nextRow(line.botName, line.level, line.message);
      const isMarker = row !== null && row.seq === MAX_STORED_LOG_LINES && row.botName === 'LogBot';
      if (isMarker) marker = row;
      if (row) rows.push(row);
      seqs.push(row && !isMarker ? row.seq : null);
    }
    try {
      this.#store(rows);
      if (rows.length) this.#save();
    } catch (err) {
      this.#deps.logger.error({ err, buildId: this.id }, 'could not store build log lines');
    }
    // One frame per run of lines of one stream and one bot (PERFORMANCE.md: batch lines per frame),
    // carrying the seq of its first stored line so clients merge live and stored lines exactly.
    let start = 0;
    for (let i = 1; i <= lines.length; i++) {
      const a = lines[start]!;
      const b = lines[i];
      const sameRun =
        b !== undefined &&
        b.stream === a.stream &&
        b.botName === a.botName &&
        (seqs[start] === null) === (seqs[i] === null) &&
        (seqs[i] === null || seqs[i] === (seqs[i - 1] as number) + 1);
      if (sameRun) continue;
      const run = lines.slice(start, i);
      const first = seqs[start];
      this.#deps.broadcast({
        type: a.stream === 'stdout' ? 'build-output' : 'build-error',
        output: run.map((l) => l.message).join('\n'),
        botName: a.botName,
        ...(typeof first === 'number' ? { seq: first } : {}),
        ...this.#context(),
        timestamp: run.at(-1)!.ts,
      });
      start = i;
    }
    if (marker) {
      this.#deps.broadcast({
        type: 'log',
        botName: marker.botName,
        level: marker.level,
        message: marker.message,
        id: `${this.id}:${marker.seq}`,
        seq: marker.seq,
        ...this.#context(),
        timestamp: marker.ts,
      });
    }
  }
}
