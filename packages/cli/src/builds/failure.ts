import type { BuildError } from '@forge/shared';
import { sanitize, type Tone } from '../terminal.ts';

/**
 * How forge says why a build failed, the same in every command: the first error line the tool
 * printed (with its file:line) first, then Forge's one-sentence message, then the command that
 * prints the whole log. Types only from @forge/shared: `forge status` loads this without schemas.
 */

/** "src/App.tsx:12:5" (or "src/App.tsx:12"). */
export const formatLocation = (location: NonNullable<BuildError['location']>): string =>
  `${location.file}:${location.line}${location.column ? `:${location.column}` : ''}`;

/** The command that prints a build's whole log. */
export const logCommand = (buildId: string): string => `forge logs ${buildId}`;

/** "src/App.tsx:12:5  error TS2322: …": the first error line with its place; null when the tool printed none. */
export function firstErrorText(error: Pick<BuildError, 'firstLine' | 'location'>): string | null {
  if (!error.firstLine) return null;
  const place = error.location ? `${formatLocation(error.location)}  ` : '';
  return sanitize(`${place}${error.firstLine}`);
}

/**
 * The lines that explain a failure, as [label, text] rows: the first error line (label "error"),
 * then the message with its code (label "error" when there is no first line), the probable cause,
 * and — when the tool printed no error line — the last lines of its output, each its own row
 * (unless `tail: false`, for a one-screen view).
 */
export function failureRows(error: BuildError, options: { tail?: boolean } = {}): [string, string][] {
  const rows: [string, string][] = [];
  const first = firstErrorText(error);
  const message = `${sanitize(error.message)} [${error.code}]`;
  if (first) rows.push(['error', first], ['', message]);
  else rows.push(['error', message]);
  if (error.probableCause) rows.push(['cause', sanitize(error.probableCause)]);
  if (!first && options.tail !== false && error.tail?.length) {
    error.tail.forEach((line, i) => rows.push([i === 0 ? 'output' : '', sanitize(line)]));
  }
  return rows;
}

/** failureRows as aligned lines ("  error  …" / "         …"), the first error line in the error colour. */
export function failureLines(
  error: BuildError,
  paint: (tone: Tone | undefined, text: string) => string,
  options: { tail?: boolean } = {},
): string[] {
  const rows = failureRows(error, options);
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(
    ([label, text]) => `  ${label.padEnd(width)}  ${label === 'error' ? paint('bad', text) : text}`,
  );
}
