import { formatBytes } from '@forge/shared';
import { LineSplitter, type SplitLine } from './line-splitter.ts';

export type OutputStream = 'stdout' | 'stderr';

/** One line of a command's output. */
export interface OutputLine {
  stream: OutputStream;
  /** Without the line break; a too-long line is cut and ends with a ` …[truncated N chars]` marker. */
  text: string;
}

export interface OutputTotals {
  /** Bytes the command wrote to stdout and stderr. */
  outputBytes: number;
  /** Bytes not delivered because the output cap was reached. */
  droppedBytes: number;
  /** Delivered lines that were cut for length. */
  truncatedLines: number;
}

/**
 * Turns a command's two byte streams into lines and enforces the per-command output cap: once the
 * delivered lines would pass `maxOutputBytes`, nothing more is delivered (the bytes are only counted,
 * not even split) and `end()` delivers one marker line saying how much was dropped.
 */
export class OutputLimiter {
  readonly #deliver: (line: OutputLine) => void;
  readonly #maxOutputBytes: number;
  readonly #splitters: Record<OutputStream, LineSplitter>;
  #outputBytes = 0;
  /** Bytes counted against the cap: what was delivered (a cut line counts its delivered text). */
  #deliveredBytes = 0;
  /** Stream bytes of the delivered lines, cut parts included (they were dealt with, not dropped). */
  #handledBytes = 0;
  #truncatedLines = 0;
  #capped = false;
  #ended = false;

  constructor(options: {
    maxLineLength: number;
    maxOutputBytes: number;
    deliver: (line: OutputLine) => void;
  }) {
    this.#deliver = options.deliver;
    this.#maxOutputBytes = options.maxOutputBytes;
    const splitter = (stream: OutputStream) =>
      new LineSplitter(options.maxLineLength, (line) => this.#onLine(stream, line));
    this.#splitters = { stdout: splitter('stdout'), stderr: splitter('stderr') };
  }

  write(stream: OutputStream, chunk: Buffer): void {
    this.#outputBytes += chunk.length;
    if (!this.#capped) this.#splitters[stream].push(chunk);
  }

  /** Flushes unfinished lines and, if the cap was hit, delivers the marker. Idempotent. */
  end(): OutputTotals {
    if (!this.#ended) {
      this.#ended = true;
      if (!this.#capped) {
        this.#splitters.stdout.end();
        this.#splitters.stderr.end();
      }
      if (this.#capped) {
        this.#deliver({
          stream: 'stderr',
          text: `…[output limit of ${formatBytes(this.#maxOutputBytes)} reached: ${formatBytes(this.#droppedBytes())} more not shown]`,
        });
      }
    }
    return {
      outputBytes: this.#outputBytes,
      droppedBytes: this.#droppedBytes(),
      truncatedLines: this.#truncatedLines,
    };
  }

  #droppedBytes(): number {
    return this.#outputBytes - this.#handledBytes;
  }

  #onLine(stream: OutputStream, line: SplitLine): void {
    if (this.#capped) return;
    const cost = line.truncatedChars > 0 ? Buffer.byteLength(line.text) + 1 : line.rawBytes;
    if (this.#deliveredBytes + cost > this.#maxOutputBytes) {
      this.#capped = true;
      return;
    }
    this.#deliveredBytes += cost;
    this.#handledBytes += line.rawBytes;
    if (line.truncatedChars > 0) this.#truncatedLines++;
    this.#deliver({ stream, text: line.text });
  }
}
