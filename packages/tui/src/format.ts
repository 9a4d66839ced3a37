import { stripVTControlCharacters } from 'node:util';

const pad2 = (n: number) => n.toString().padStart(2, '0');

/** Local wall-clock time of an ISO timestamp as HH:MM:SS ("--:--:--" when it is not a date). */
export function formatClock(timestamp: string | undefined): string {
  const date = timestamp === undefined ? new Date(Number.NaN) : new Date(timestamp);
  if (Number.isNaN(date.getTime())) return '--:--:--';
  return `${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`;
}

/**
 * One line of text from a project's own tools, safe to draw: colour and cursor sequences and
 * control characters would move Ink's cursor and tear the frame, so they are removed (a carriage
 * return keeps only what was drawn last, as a terminal would show it), and tabs become spaces.
 */
export function sanitizeLine(text: string): string {
  const lastSegment =
    text
      .split('\r')
      .filter((part) => part.length > 0)
      .at(-1) ?? '';
  return (
    stripVTControlCharacters(lastSegment)
      .replace(/\t/g, '  ')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001F\u007F-\u009F]/g, '')
  );
}

/** The lines of an output frame: one or more lines; a trailing newline is not an extra empty line. */
export function splitOutput(output: string): string[] {
  const lines = output.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines.map(sanitizeLine);
}

/** Bytes as the web shows sizes: B, KB, MB with one decimal above bytes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
