import { EventEmitter } from 'node:events';
import {
  canTransition,
  endState,
  isFinished,
  pathBetween,
  type Blueprint,
  type Build,
  type BuildError,
  type BuildOutput,
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
import type { BuildFailure, RecordPatch } from './steps/types.ts';
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
  /** Structured details of the refusal, for an upload still waiting for its answer (never stored). */
  details?: unknown;
}

/** What an upload can answer once it is known: planned, waiting for its turn, or refused. */
export type PlanOutcome =
  { kind: 'planned'; blueprint: Blueprint } | { kind: 'queued' } | { kind: 'refused'; failure: BuildFailure };

/** Everything a build tells, as events of its `BuildRun`. */
export interface BuildRunEvents {
  /** Every /ws message about the build, in the order it is sent. */
  message: [message: ServerMessage];
  /** Once, what an upload can answer: planned (with the plan), queued, or refused (with the failure). */
  planned: [outcome: PlanOutcome];
  /** The build reached its final state: the record as it ended. */
  finished: [build: Build];
}

/** The machine's own messages: a mirrored build makes them itself, from the moves it checks. */
const MACHINE_MESSAGES = new Set<ServerMessage['type']>(['build-stage', 'build-finished']);

/** The refusal an upload is told when its build ends before it was planned or queued. */
function refusalOf(status: FinishedStatus, ending: Ending): BuildFailure {
  return {
    status: status === 'cancelled' || status === 'timed-out' ? status : 'failed',
    code: ending.error?.code ?? (status === 'cancelled' ? 'CANCELLED' : 'INTERNAL'),
    message: ending.error?.message ?? `The build ended ${status}.`,
    ...(ending.details === undefined ? {} : { details: ending.details }),
  };
}

/** How a worker's record ended its build, as this run's ending. */
const endingOf = (record: Build): Ending => ({
  ...(record.error ? { error: record.error } : {}),
  ...(record.cancelReason ? { cancelReason: record.cancelReason } : {}),
  ...(record.diagnosis ? { diagnosis: record.diagnosis } : {}),
});

/**
 * One build in flight: the only writer of its record and the only emitter of what happens to it.
 * Its (status, stage) moves only through `to()` — and `mirror()`, which takes a worker's moves
 * through the same check —, which refuses any move the build machine
 * (shared/domain/build-machine.ts) does not allow, stores the change and broadcasts it:
 * `build-stage` for every move, and `build-finished` once when the build reaches a final state.
 * Steps, log lines and the fields steps produce go through here too, so the record, /ws and every
 * client tell the same story. Every message is also a `message` event, beside `planned` (what an
 * upload answers) and `finished`.
 */
export class BuildRun {
  readonly #abort = new AbortController();
  readonly #events = new EventEmitter<BuildRunEvents>();
  readonly #deps: Required<BuildRunDeps>;
  #build: Build;
  #seq: number;
  #batcher: LineBatcher<PendingLine>;
  readonly #done: Promise<Build>;
  #resolveDone!: (b: Build) => void;
  readonly #stored: Promise<void>;
  #resolveStored!: () => void;
  #plan: PlanOutcome | null = null;
  readonly #planned: Promise<PlanOutcome>;
  #resolvePlanned!: (o: PlanOutcome) => void;

  constructor(deps: BuildRunDeps, build: Build) {
    this.#deps = { now: () => new Date(), ...deps };
    this.#build = structuredClone(build);
    // A recovered build already has stored lines: continue after them.
    this.#seq = deps.repo.lastLogSeq(build.id);
    this.#batcher = new LineBatcher((lines) => this.#flushLines(lines));
    this.#done = new Promise((resolve) => (this.#resolveDone = resolve));
    this.#stored = new Promise((resolve) => (this.#resolveStored = resolve));
    this.#planned = new Promise((resolve) => (this.#resolvePlanned = resolve));
    if (isFinished(build.status)) {
      this.#resolveDone(this.snapshot());
      this.#resolveStored();
      this.#tellPlanned(build.status as FinishedStatus, {});
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
  /**
   * Resolves, once, with what an upload can answer: planned (with the plan), queued (waiting for its
   * turn), or refused (the build ended before either, with how). The `planned` event as a promise.
   */
  get planned(): Promise<PlanOutcome> {
    return this.#planned;
  }
  /** A copy of the record as it is now. */
  snapshot(): Build {
    return structuredClone(this.#build);
  }

  /** Listen to what the build tells (BuildRunEvents). */
  on<E extends keyof BuildRunEvents>(event: E, listener: (...args: BuildRunEvents[E]) => void): this {
    this.#events.on(event, listener as never);
    return this;
  }
  off<E extends keyof BuildRunEvents>(event: E, listener: (...args: BuildRunEvents[E]) => void): this {
    this.#events.off(event, listener as never);
    return this;
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

  /**
   * Tell what an upload can answer. The first word counts: a build that said it waits for its turn
   * is not planned again, and one that ends before either says so refuses (see `#tellPlanned`).
   */
  plan(outcome: PlanOutcome): void {
    if (this.#plan) return;
    this.#plan = outcome;
    this.#resolvePlanned(outcome);
    this.#events.emit('planned', outcome);
  }

  /** A build that ends before it was planned or queued refuses its upload with how it ended. */
  #tellPlanned(status: FinishedStatus, ending: Ending): void {
    if (this.#plan) return;
    const blueprint = this.#build.blueprint;
    this.plan(
      status === 'succeeded' && blueprint
        ? { kind: 'planned', blueprint }
        : { kind: 'refused', failure: refusalOf(status, ending) },
    );
  }

  /** Every message about the build goes out here: to every client, and as a `message` event. */
  #send(message: ServerMessage): void {
    this.#deps.broadcast(message);
    this.#events.emit('message', message);
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
    this.#move(next, ending, this.#deps.now());
    return this.snapshot();
  }

  /** One checked move, made at `now` (for a mirrored move: when the worker made it). */
  #move(next: BuildState, ending: Ending, now: Date): void {
    const from = this.state;
    if (!canTransition(from, next)) throw new IllegalTransitionError(this.id, from, next);
    const final = isFinished(next.status);
    // Lines still waiting belong to the stage they were printed in.
    if (final) this.#batcher.close();
    else this.#batcher.flush();
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
    this.#send({
      type: 'build-stage',
      stage: next.stage,
      status: next.status,
      worker: b.worker,
      projectName: b.projectName,
      buildId: b.id,
      timestamp: at,
    });
    if (!final) return;
    const snapshot = this.snapshot();
    this.#send({
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
    this.#tellPlanned(next.status as FinishedStatus, ending);
    this.#events.emit('finished', snapshot);
  }

  /**
   * End the build with a finished status at the stage the machine gives it. Builds are ended from
   * engine/endings.ts, which says why in the build's log first.
   */
  end(status: FinishedStatus, ending: Ending = {}): Build {
    return this.to(endState(status), ending);
  }

  /** The build succeeded with `output`: it ends, and `build_complete` says what it produced. */
  succeed(output: BuildOutput): Build {
    const ended = this.end('succeeded');
    // docs/product.md#build-states: clients raise their Build Complete dialog on build_complete.
    this.#send({
      type: 'build_complete',
      buildOutput: output,
      ...this.#context(),
      timestamp: this.#deps.now().toISOString(),
    });
    return ended;
  }

  /** The bots that take the build on, each shown assigned to it. */
  assignBots(botNames: readonly string[]): void {
    for (const botName of botNames) this.#send({ type: 'bot-assigned', botName, ...this.#context() });
  }

  /** An upload asked for a rapid build: clients show it starting from its first byte. */
  announceRapidStart(): void {
    this.#send({ type: 'rapid-build-start', ...this.#context() });
  }

  /**
   * Record fields a step produced. Never status or stage: those move only through `to()`. A new
   * preview URL is also broadcast (`preview-ready`) the moment it is recorded: the preview is up
   * before the build ends, and clients show it while the tests still run.
   */
  record(patch: RecordPatch): void {
    const preview = patch.previewUrl && patch.previewUrl !== this.#build.previewUrl ? patch.previewUrl : null;
    Object.assign(this.#build, patch);
    this.#save();
    if (preview) {
      this.#send({
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
   * and posts its record, stored lines and /ws messages). Lines already stored are skipped, so a post
   * sent twice (its answer lost) changes nothing. The worker's fields are stored first; then its moves
   * go through the same check as `to()` (the stages it recorded after ours, at its times, or the
   * machine's shortest way to its state), so `build-stage` and `build-finished` are made here as for
   * a build run here, and the worker's copies are dropped. A record that would move the build back
   * is refused (IllegalTransitionError). The other messages are relayed in the worker's order, each
   * move made where the worker's `build-stage` of it stood.
   */
  mirror(update: {
    record: Build | null;
    logs: readonly LogRow[];
    messages: readonly ServerMessage[];
  }): void {
    if (this.finished) {
      // What a worker sends after the end (build_complete, a server app's output) is live only.
      for (const m of update.messages) if (!MACHINE_MESSAGES.has(m.type)) this.#send(m);
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
    let moves: Array<{ state: BuildState; at: Date }> = [];
    if (record && record.id === this.id) {
      moves = this.#movesTo(record);
      // The coordinator's own fields stay its own: identity, creation, the stored log's count; the
      // machine's fields (status, stage, stages, end) are written by the moves below.
      const {
        id: _id,
        projectName: _projectName,
        createdAt: _createdAt,
        noCache: _noCache,
        logCount: _logCount,
        status: _status,
        stage: _stage,
        stages: _stages,
        endedAt: _endedAt,
        durationMs: _durationMs,
        error: _error,
        cancelReason: _cancelReason,
        diagnosis: _diagnosis,
        logTruncated,
        ...fields
      } = structuredClone(record);
      Object.assign(this.#build, fields);
      this.#build.logTruncated ||= logTruncated;
    }
    if (record || rows.length) this.#save();
    // Each move is made where the worker's message of it stood, so clients get everything in the
    // worker's order; moves whose message was not sent (dropped, or an older worker) come last.
    const ending = record ? endingOf(record) : {};
    let made = 0;
    const moveThrough = (count: number) => {
      for (; made < count; made++) {
        const { state, at } = moves[made]!;
        this.#move(state, made === moves.length - 1 ? ending : {}, at);
      }
    };
    for (const m of update.messages) {
      if (!MACHINE_MESSAGES.has(m.type)) this.#send(m);
      else if (m.type === 'build-stage') {
        const i = moves.findIndex(
          (mv, j) => j >= made && mv.state.stage === m.stage && mv.state.status === m.status,
        );
        if (i >= 0) moveThrough(i + 1);
      }
    }
    moveThrough(moves.length);
  }

  /**
   * The moves that take this build to the state of a worker's record: the stages the worker recorded
   * after ours (each entered running, the last in the record's status), when they make a way the
   * machine allows; else the machine's shortest way there. Throws when there is none.
   */
  #movesTo(record: Build): Array<{ state: BuildState; at: Date }> {
    const from = this.state;
    const target: BuildState = { status: record.status, stage: record.stage };
    const entries = record.stages.slice(this.#build.stages.length);
    const recorded = entries.map((e, i) => ({
      state: { status: i === entries.length - 1 ? record.status : 'running', stage: e.stage } as BuildState,
      at: new Date(e.at),
    }));
    const ends = recorded.at(-1)?.state;
    const valid =
      ends !== undefined &&
      ends.status === target.status &&
      ends.stage === target.stage &&
      recorded.every(
        (m, i) => canTransition(i === 0 ? from : recorded[i - 1]!.state, m.state) && !isNaN(+m.at),
      );
    if (valid) return recorded;
    const way = pathBetween(from, target);
    if (!way) throw new IllegalTransitionError(this.id, from, target);
    const at = this.#deps.now();
    return way.map((state) => ({ state, at }));
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
    this.#send({
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
      this.#send({
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
      this.#send({
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
      this.#send({
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
