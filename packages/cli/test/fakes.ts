import {
  FINAL_STAGE,
  type Build,
  type BuildLogsResponse,
  type FinishedStatus,
  type ServerMessage,
  type SocketHandlers,
  type SocketSubscription,
  type Stage,
} from '@forge/shared';
import { at, logEntry, makeBuild, type StoredLogEntry } from '@forge/testing';
import type { BuildSource } from '../src/builds/source.ts';

/** Fakes of the daemon for unit tests of the wait and follow logic (no network, no vi.mock). */

export { at, logEntry, makeBuild };
type LogEntry = StoredLogEntry;

/**
 * A daemon with one build whose record and log the test changes at will, and a /ws the test drives:
 * `greet()` (hello), `drop()`, `emit(message)`.
 */
export class FakeDaemon implements BuildSource {
  build: Build = makeBuild();
  log: LogEntry[] = [];
  truncated = false;
  /** Thrown by the next calls to getBuild (then cleared when set back to undefined). */
  failWith: unknown;
  getBuildCalls = 0;
  getLogsCalls: { after?: number; limit?: number }[] = [];
  /** Called inside getLogs before it answers: lets a test add lines "while the read is in flight". */
  duringGetLogs: (() => void) | undefined;
  private handlers: SocketHandlers | undefined;
  closed = false;

  async getBuild(id: string): Promise<Build> {
    this.getBuildCalls++;
    if (this.failWith) throw this.failWith;
    if (id !== this.build.id)
      throw Object.assign(new Error('no such build'), { name: 'ForgeHttpError', status: 404 });
    return structuredClone(this.build);
  }

  async getLogs(_id: string, page: { after?: number; limit?: number }): Promise<BuildLogsResponse> {
    this.getLogsCalls.push(page);
    const limit = page.limit ?? 1000;
    const after = page.after ?? 0;
    const entries = this.log.filter((e) => e.seq > after).slice(0, limit);
    this.duringGetLogs?.();
    return { entries, truncated: this.truncated, next: entries.at(-1)?.seq ?? after };
  }

  subscribe(handlers: SocketHandlers): SocketSubscription {
    this.handlers = handlers;
    handlers.onStatus?.('connecting');
    return {
      status: 'connecting',
      send: () => false,
      close: () => {
        this.closed = true;
      },
    };
  }

  greet(): void {
    this.handlers?.onStatus?.('connected');
    this.handlers?.onMessage?.({ type: 'hello', version: '1.0.0', clientId: 'c1' });
  }

  drop(): void {
    this.handlers?.onStatus?.('disconnected');
  }

  emit(message: ServerMessage): void {
    this.handlers?.onMessage?.(message);
  }

  /** Move the running build on to `stage` at `ms`, as the daemon would record it. */
  enter(stage: Stage, ms: number): void {
    this.build.stages.push({ stage, at: at(ms) });
    this.build.status = 'running';
    this.build.stage = stage;
  }

  /** Store a line of the build's log (seq next in line), as the daemon does before it streams it. */
  store(message: string): LogEntry {
    const entry = logEntry(this.log.length + 1, message);
    this.log.push(entry);
    this.build.logCount = entry.seq;
    return entry;
  }

  /** End the build at its status's final stage at `ms`. */
  finish(status: FinishedStatus, ms: number): void {
    this.build.stages.push({ stage: FINAL_STAGE[status], at: at(ms) });
    this.build.status = status;
    this.build.stage = FINAL_STAGE[status];
    this.build.endedAt = at(ms);
    this.build.durationMs = ms;
  }
}

/** An error shaped like the shared client's ForgeUnreachableError (matched by name). */
export const unreachable = (): Error =>
  Object.assign(new Error('Cannot reach the Forge daemon at http://127.0.0.1:1'), {
    name: 'ForgeUnreachableError',
  });
