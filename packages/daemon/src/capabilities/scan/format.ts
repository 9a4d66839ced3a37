import { formatDuration, plural, type ScanIssue, type ScanReport } from '@forge/shared';

/** Values come from the uploaded project: never let them move the cursor or recolour a terminal. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;
const clean = (text: string): string => text.replace(CONTROL, ' ');

const MARK: Record<ScanIssue['severity'], string> = { error: '✖', warn: '⚠', info: 'ℹ' };

const place = (issue: ScanIssue): string =>
  issue.file ? `${clean(issue.file)}${issue.line ? `:${issue.line}` : ''}` : '';

/**
 * The scan as the Forge assistant shows it: what was scanned, counts by severity, then one line per
 * finding (mark, file:line, what) with its suggestion indented under it.
 */
export function formatScanReport(report: ScanReport): string {
  const count = (severity: ScanIssue['severity']) =>
    report.issues.filter((i) => i.severity === severity).length;
  const errors = count('error');
  const warnings = count('warn');
  const notes = count('info');
  const lines = [
    `ScanBot scanned ${clean(report.projectName)}: ${plural(report.files, 'file')} read in ${formatDuration(report.durationMs)}; ` +
      `type check ${report.typeChecked ? 'ran' : 'not run (needs the dependencies installed: node_modules/typescript and a tsconfig.json)'}.`,
  ];
  if (report.incomplete) lines.push(`The scan is partial: ${report.incomplete}`);
  if (report.issues.length === 0) {
    lines.push('No issues found.');
    return lines.join('\n');
  }
  lines.push(
    `${plural(report.issues.length, 'issue')}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${notes} info.`,
    '',
  );
  for (const issue of report.issues) {
    const where = place(issue);
    const summary = clean(issue.summary);
    // Most summaries name their file (and line) already; the place leads only when they do not.
    const lead = where && !summary.includes(clean(issue.file!)) ? `${where}  ` : '';
    lines.push(`${MARK[issue.severity]} ${issue.severity.padEnd(5)} ${lead}${summary}`);
    if (issue.suggestion) lines.push(`    → ${clean(issue.suggestion)}`);
  }
  return lines.join('\n');
}
