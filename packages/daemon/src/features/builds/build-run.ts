import type {
  Build,
  BuildError,
  BuildStatus,
  BuildStep,
  CancelReason,
  LogLevel,
  ServerMessage,
  Stage,
  StepName,
} from '@forge/shared';
import type { Logger } from '../../logging/logger.ts';
import { LineBatcher } from '../../pipeline/run/index.ts';
import type { BuildRepo, LogRow } from './repo.ts';

/** Stored log lines per build; past it one marker line is stored and the rest only streams live. */
export const MAX_STORED_LOG_LINES = 20_000;

export interface BuildRunDeps {
  repo: BuildRepo;
  broadcast: (message: ServerMessage) => void;
  logger: Logger;
  now?: () => Date;
}

interface PendingLine extends LogRow {
  stream: 'stdout' | 'stderr' | null;
}

/**
 * One build in flight: the only writer of its record. Every stage change, step and log line goes
 * through here, is stored, and is broadcast on /ws (CONVENTIONS "Jobs and stages").
 */
export class BuildRun {
  readonly abort = new AbortController();
  readonly #deps: Required<BuildRunDeps>;
  #build: Build;
  #seq = 0;
  #started: number;
  #batcher: LineBatcher<PendingLine>;
  #finished = false;
  readonly #done: Promise<Build>;
  #resolveDone!: (b: Build) => void;

  constructor(deps: BuildRunDeps, build: Build) {
    this.#deps = { now: () => new Date(), ...deps };
    this.#build = structuredClone(build);
    this.#started = Date.parse(build.createdAt);
    // A recovered build already has stored lines: continue after them.
    this.#seq = deps.repo.lastLogSeq(build.id);
    this.#batcher = new LineBatcher((lines) => this.#flushLines(lines));
    this.#done = new Promise((resolve) => (this.#resolveDone = resolve));
  }

  get id(): string {
    return this.#build.id;
  }
  get projectName(): string {
    return this.#build.projectName;
  }
  get signal(): AbortSignal {
    return this.abort.signal;
  }
  get finished(): boolean {
    return this.#finished;
  }
  /** Resolves with the final record once the build has finished, whatever the outcome. */
  get done(): Promise<Build> {
    return this.#done;
  }
  /** A copy of the record as it is now. */
  snapshot(): Build {
    return structuredClone(this.#build);
  }

  #context() {
    return { projectName: this.#build.projectName, buildId: this.#build.id, stage: this.#build.stage };
  }

  #save(): void {
    this.#deps.repo.save(this.#build);
  }

  /** Change the record with `fn`, then store it. */
  update(fn: (b: Build) => void): void {
    fn(this.#build);
    this.#save();
  }

  /** Enter a spec §4 stage: stored with its time and broadcast as `build-stage`. */
  to(stage: Stage): void {
    const at = this.#deps.now().toISOString();
    this.update((b) => {
      b.stage = stage;
      b.stages.push({ stage, at });
    });
    this.#deps.broadcast({
      type: 'build-stage',
      stage,
      status: this.#build.status,
      projectName: this.projectName,
      buildId: this.id,
      timestamp: at,
    });
  }

  /** A bot's own message about the build (not command output): stored and sent as a `log` message. */
  log(botName: string, level: LogLevel, message: string): void {
    this.#batcher.flush();
    const row = this.#nextRow(botName, level, message);
    if (row) this.#store([row]);
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
    if (this.#finished) {
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
    this.#batcher.push({
      seq: 0,
      ts,
      level: stream === 'stderr' ? 'warn' : 'info',
      botName,
      message: text,
      stream,
    });
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
      if (row && row.botName === 'LogBot' && row.seq === MAX_STORED_LOG_LINES) marker = row;
      if (row) rows.push(row);
      seqs.push(row && row !== marker ? row.seq : null);
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
        ...(first !== null && first !== undefined ? { seq: first } : {}),
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

  /** Start a step (a bot's job) and get a function that records how it ended. */
  step(name: StepName, botName: string): (status: BuildStep['status'], detail?: string | null) => BuildStep {
    const startedAt = this.#deps.now();
    const record: BuildStep = {
      name,
      botName,
      status: 'running',
      startedAt: startedAt.toISOString(),
      durationMs: null,
      detail: null,
      attempt: 1,
      debug: null,
    };
    this.update((b) => b.steps.push(record));
    return (status, detail = null) => {
      this.#batcher.flush();
      this.update((b) => {
        const step = b.steps.find((s) => s.startedAt === record.startedAt && s.name === name)!;
        step.status = status;
        step.durationMs = this.#deps.now().getTime() - startedAt.getTime();
        step.detail = detail;
      });
      return this.#build.steps.find((s) => s.name === name && s.startedAt === record.startedAt)!;
    };
  }

  /** The only way a build ends. Idempotent: the first call wins. */
  finish(
    status: Exclude<BuildStatus, 'queued' | 'running'>,
    extra: { error?: BuildError; cancelReason?: CancelReason } = {},
  ): Build {
    if (this.#finished) return this.snapshot();
    this.#finished = true;
    this.#batcher.close();
    const end = this.#deps.now();
    this.update((b) => {
      b.status = status;
      b.endedAt = end.toISOString();
      b.durationMs = Math.max(0, end.getTime() - this.#started);
      if (extra.error) b.error = extra.error;
      if (extra.cancelReason) b.cancelReason = extra.cancelReason;
      for (const s of b.steps) {
        if (s.status === 'running') {
          s.status = status === 'cancelled' ? 'cancelled' : status === 'timed-out' ? 'timed-out' : 'failed';
          s.durationMs = end.getTime() - Date.parse(s.startedAt);
        }
      }
    });
    const final = this.snapshot();
    this.#deps.broadcast({
      type: 'build-finished',
      buildId: final.id,
      projectName: final.projectName,
      status: final.status,
      stage: final.stage,
      previewUrl: final.previewUrl,
      cacheHit: final.cacheHit,
      error: final.error,
      cancelReason: final.cancelReason,
      endedAt: final.endedAt ?? undefined,
      durationMs: final.durationMs,
    });
    this.#resolveDone(final);
    return final;
  }
}
