import type { ScanIssue, ScanReport } from '@forge/shared';
import { formatDuration, plural } from '@forge/shared/schema-free';
import { sanitize, type Tone } from '../terminal.ts';

type Paint = (tone: Tone | undefined, text: string) => string;

const SEVERITIES: { severity: ScanIssue['severity']; heading: string; tone: Tone | undefined }[] = [
  { severity: 'error', heading: 'Errors', tone: 'bad' },
  { severity: 'warn', heading: 'Warnings', tone: 'warn' },
  { severity: 'info', heading: 'Info', tone: undefined },
];

/** "src/App.tsx:12" (or the file alone), or null for a finding about the project as a whole. */
const placeOf = (issue: ScanIssue): string | null =>
  issue.file ? sanitize(`${issue.file}${issue.line ? `:${issue.line}` : ''}`) : null;

/**
 * `forge scan`: a header (files read, whether the types were checked, time), then the findings
 * grouped by severity, errors first, each as `file:line  summary [kind]` with its suggestion below.
 */
export function formatScan(report: ScanReport, paint: Paint): string[] {
  const types = report.typeChecked ? 'types checked' : 'types not checked (install the dependencies first)';
  const lines = [
    `Scan of ${sanitize(report.projectName)}: ${plural(report.files, 'file')}, ${types}, in ${formatDuration(report.durationMs)}`,
  ];
  if (report.issues.length === 0) {
    lines.push(paint('good', 'No issues found.'));
    return lines;
  }
  for (const { severity, heading, tone } of SEVERITIES) {
    const issues = report.issues.filter((i) => i.severity === severity);
    if (issues.length === 0) continue;
    lines.push('', paint(tone, `${heading} (${issues.length})`));
    for (const issue of issues) {
      const place = placeOf(issue);
      lines.push(
        `  ${place ? `${paint('bold', place)}  ` : ''}${sanitize(issue.summary)} ${paint('dim', `[${issue.kind}]`)}`,
      );
      if (issue.suggestion) lines.push(`    ${paint('dim', '→')} ${sanitize(issue.suggestion)}`);
    }
  }
  return lines;
}

/** The counts by severity, for the last line: "1 error, 2 warnings, 0 info". */
export function scanCounts(report: ScanReport): string {
  const count = (s: ScanIssue['severity']) => report.issues.filter((i) => i.severity === s).length;
  return `${plural(count('error'), 'error')}, ${plural(count('warn'), 'warning')}, ${count('info')} info`;
}
