import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** pino's numeric levels. */
const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

const pad2 = (n: number) => n.toString().padStart(2, '0');

/**
 * One pino JSON line as `HH:MM:SS LEVEL msg` (local time). Lines that are not pino JSON are shown as
 * they are, so nothing in the file is hidden.
 */
export function formatLogLine(line: string): string {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null) return line;
  const { level, time, msg, err } = entry as {
    level?: unknown;
    time?: unknown;
    msg?: unknown;
    err?: unknown;
  };
  const date = new Date(typeof time === 'number' || typeof time === 'string' ? time : NaN);
  const clock = Number.isNaN(date.getTime())
    ? '--:--:--'
    : `${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`;
  const label =
    (typeof level === 'number' ? LEVEL_NAMES[level] : undefined) ?? String(level ?? '?').toUpperCase();
  let text = typeof msg === 'string' ? msg : '';
  const errMessage = (err as { message?: unknown } | undefined)?.message;
  if (typeof errMessage === 'string' && !text.includes(errMessage))
    text = text ? `${text}: ${errMessage}` : errMessage;
  return `${clock} ${label.padEnd(5)} ${text}`;
}

/** Size of the chunk read backwards from the end of the file when looking for the last lines. */
const TAIL_CHUNK = 64 * 1024;

/**
 * The last `count` complete lines of a file and the byte offset just after them (where a follower
 * continues), without reading a large log from the start. A missing file has no lines.
 */
export function readLastLines(file: string, count: number): { lines: string[]; end: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], end: 0 };
    throw err;
  }
  try {
    const end = statSync(file).size;
    if (count <= 0) return { lines: [], end: endOfLastLine(fd, end) };
    let start = end;
    const chunks: Buffer[] = [];
    let newlines = 0;
    // Read chunks backwards until we hold count+1 newlines (or the whole file). Bytes are decoded
    // once at the end, so a character split across two chunks is not garbled.
    while (start > 0 && newlines <= count) {
      const size = Math.min(TAIL_CHUNK, start);
      start -= size;
      const buf = Buffer.alloc(size);
      readSync(fd, buf, 0, size, start);
      chunks.unshift(buf);
      for (const byte of buf) if (byte === 0x0a) newlines++;
    }
    const text = Buffer.concat(chunks).toString('utf8');
    const segments = text.split('\n');
    // A last line still being written is left for the follower, which reads on from `complete`.
    const unfinished = segments.pop() ?? '';
    const complete = end - Buffer.byteLength(unfinished);
    return { lines: segments.filter((l) => l.length > 0).slice(-count), end: complete };
  } finally {
    closeSync(fd);
  }
}

/** Offset just after the last newline of the file (its size when it ends with one). */
function endOfLastLine(fd: number, size: number): number {
  let pos = size;
  const buf = Buffer.alloc(Math.min(TAIL_CHUNK, size));
  while (pos > 0) {
    const n = Math.min(buf.length, pos);
    readSync(fd, buf, 0, n, pos - n);
    const i = buf.subarray(0, n).lastIndexOf(0x0a);
    if (i >= 0) return pos - n + i + 1;
    pos -= n;
  }
  return 0;
}

/** How often `forge daemon logs -f` looks for new lines. */
export const FOLLOW_POLL_MS = 250;

/**
 * Call `onLine` for every complete line appended to `file` after byte `from`, until `signal` aborts.
 * A file that shrinks (rotated or truncated) is read again from its start. It polls the size
 * (like `tail -f` without inotify): fs.watch is unreliable across platforms and for files that do not
 * exist yet, and fs.watchFile misses writes made before its first stat.
 */
export function followFile(
  file: string,
  from: number,
  onLine: (line: string) => void,
  signal: AbortSignal,
): Promise<void> {
  let position = from;
  let partial = '';
  // Keeps a multi-byte character that straddles two reads intact.
  let decoder = new StringDecoder('utf8');
  const readNew = (size: number) => {
    if (size < position) {
      position = 0;
      partial = '';
      decoder = new StringDecoder('utf8');
    }
    if (size === position) return;
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return;
    }
    try {
      const buf = Buffer.alloc(size - position);
      const n = readSync(fd, buf, 0, buf.length, position);
      position += n;
      const text = partial + decoder.write(buf.subarray(0, n));
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) if (line.length > 0) onLine(line);
    } finally {
      closeSync(fd);
    }
  };
  const poll = () => {
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      return; // not there (yet, or while being rotated)
    }
    readNew(size);
  };
  return new Promise((resolve) => {
    poll();
    const timer = setInterval(poll, FOLLOW_POLL_MS);
    const stop = () => {
      clearInterval(timer);
      resolve();
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}
