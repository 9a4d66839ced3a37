import type { BuildError, Diagnosis, Repair, ToolError } from '@forge/shared';
import { diagnosedPlace, otherErrors } from '@forge/shared/schema-free';
import { sanitize, type Tone } from '../terminal.ts';

/**
 * How forge says why a build failed, the same in every command: the first error line the tool
 * printed (with its file:line) first, then Forge's one-sentence message, then the command that
 * prints the whole log. Types only from @forge/shared (values from its schema-free entry): `forge status`
 * loads this without schemas.
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
  rows.push(...toolErrorRows(error));
  if (error.probableCause) rows.push(['cause', sanitize(error.probableCause)]);
  if (!first && options.tail !== false && error.tail?.length) {
    error.tail.forEach((line, i) => rows.push([i === 0 ? 'output' : '', sanitize(line)]));
  }
  return rows;
}

/** Label of the primary error's row in a list of tool errors (painted as the error). */
export const PRIMARY_MARK = '▶';

/** "src/cart.ts:2:14  TS2322  Type 'number' is not assignable…": one tool error on one line. */
export function toolErrorText(e: ToolError): string {
  const place = e.file ? `${e.file}${e.line ? `:${e.line}${e.column ? `:${e.column}` : ''}` : ''}  ` : '';
  return sanitize(`${place}${e.code ? `${e.code}  ` : ''}${e.message}`);
}

/**
 * Every distinct error the tools printed, when there were several (one is the first error line
 * already): a heading row with the count and the tools, then a row each, the primary one labelled
 * PRIMARY_MARK.
 */
export function toolErrorRows(error: Pick<BuildError, 'errors' | 'errorCount'>): [string, string][] {
  const errors = error.errors ?? [];
  const count = Math.max(error.errorCount ?? 0, errors.length);
  if (count < 2 || errors.length === 0) return [];
  const tools = [...new Set(errors.map((e) => e.tool))].join(', ');
  const cut = count > errors.length ? `, the first ${errors.length} listed` : '';
  return [
    ['errors', sanitize(`${count} errors (${tools}${cut}):`)],
    ...errors.map((e): [string, string] => [e.primary ? PRIMARY_MARK : '', toolErrorText(e)]),
  ];
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
    ([label, text]) =>
      `  ${label.padEnd(width)}  ${label === 'error' || label === PRIMARY_MARK ? paint('bad', text) : text}`,
  );
}

/** "src/App.tsx:12:5" for a diagnosis (or just the file when it names no line). */
export const diagnosisPlace = (d: Pick<Diagnosis, 'file' | 'line' | 'column'>): string | null => {
  const place = diagnosedPlace(d);
  return place ? sanitize(place) : null;
};

/** The command that applies the repairs proposed for a build. */
export const fixCommand = (buildId: string): string => `forge fix ${buildId}`;

/**
 * ScanBot's reading of a failure as [label, text] rows: the diagnosis with its code, where it points
 * (project-relative file:line:col) and what to do.
 */
export function diagnosisRows(diagnosis: Diagnosis): [string, string][] {
  const rows: [string, string][] = [['diagnosis', `${sanitize(diagnosis.summary)} [${diagnosis.code}]`]];
  const place = diagnosisPlace(diagnosis);
  if (place) rows.push(['at', place]);
  if (diagnosis.suggestion) rows.push(['fix', sanitize(diagnosis.suggestion)]);
  rows.push(...otherRows(diagnosis));
  return rows;
}

/**
 * The failure's other errors (the words every client shares): each repaired with the first in the
 * same pass, or left for the developer ("remains").
 */
function otherRows(diagnosis: Diagnosis): [string, string][] {
  const view = otherErrors(diagnosis);
  if (!view) return [];
  const rows: [string, string][] = [['also', view.heading]];
  for (const { error, state, place } of view.listed) {
    rows.push([state, `${place ? `${sanitize(place)} ` : ''}${sanitize(error.summary)} [${error.code}]`]);
  }
  if (view.more) rows.push(['also', view.more]);
  return rows;
}

/**
 * RepairBot's repairs of a build as rows: each one made ("RepairBot added …"), one that failed or was
 * undone, and the proposed ones in one row that says how to apply them (`forge fix <buildId>`).
 */
export function repairRows(
  repairs: readonly Pick<Repair, 'summary' | 'status' | 'verification'>[],
  buildId: string,
): [string, string][] {
  const rows: [string, string][] = [];
  for (const repair of repairs) {
    if (repair.status === 'applied') rows.push(['repaired', sanitize(repair.summary)]);
    else if (repair.status === 'failed') rows.push(['repair', `failed: ${sanitize(repair.summary)}`]);
    else if (repair.status === 'undone') rows.push(['repair', `undone: ${sanitize(repair.summary)}`]);
  }
  // A proposal says what its trial on a copy of the project showed ("verified: the build passes").
  const proposed = repairs
    .filter((r) => r.status === 'proposed')
    .map((r) => sanitize(r.verification ? `${r.summary} (${r.verification.detail})` : r.summary));
  if (proposed.length > 0)
    rows.push(['repair', `Run ${fixCommand(buildId)} to apply: ${proposed.join('; ')}`]);
  return rows;
}

/** Why a build failed and what was or can be repaired: diagnosisRows then repairRows (either may be empty). */
export function assistantRows(build: {
  id: string;
  diagnosis?: Diagnosis | null;
  repairs?: readonly Repair[];
}): [string, string][] {
  return [
    ...(build.diagnosis ? diagnosisRows(build.diagnosis) : []),
    ...repairRows(build.repairs ?? [], build.id),
  ];
}

/** Rows as aligned lines under `indent`; the error red, the diagnosis yellow, the place bold, repairs green. */
export function alignRows(
  rows: readonly [string, string][],
  paint: (tone: Tone | undefined, text: string) => string,
  indent = '  ',
): string[] {
  if (rows.length === 0) return [];
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, text]) => `${indent}${label.padEnd(width)}  ${paint(ROW_TONE[label], text)}`);
}

const ROW_TONE: Record<string, Tone | undefined> = {
  error: 'bad',
  [PRIMARY_MARK]: 'bad',
  diagnosis: 'warn',
  at: 'bold',
  repaired: 'good',
};
