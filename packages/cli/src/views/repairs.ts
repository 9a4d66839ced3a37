import type { Repair, UndoRepairResult } from '@forge/shared';
import { sanitize, type Tone } from '../terminal.ts';

type Paint = (tone: Tone | undefined, text: string) => string;

const STATUS_TONE: Record<Repair['status'], Tone | undefined> = {
  applied: 'good',
  proposed: 'warn',
  failed: 'bad',
  undone: 'dim',
};

/** A proposal's trial on a copy of the project: passed green, partly yellow, not run dim. */
const VERIFICATION_TONE: Record<NonNullable<Repair['verification']>['status'], Tone | undefined> = {
  passes: 'good',
  partial: 'warn',
  fails: 'bad',
  'not-run': 'dim',
};

/**
 * A unified diff with its lines coloured as git colours them: added green, removed red, hunk headers
 * dim, file headers bold. The text comes from project files, so escape codes in it are removed.
 */
export function formatDiff(diff: string, paint: Paint): string[] {
  const lines = diff.replace(/\n$/, '').split('\n');
  if (lines.length === 1 && lines[0] === '') return [];
  return lines.map((raw) => {
    const line = sanitize(raw);
    if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff '))
      return paint('bold', line);
    if (line.startsWith('@@')) return paint('dim', line);
    if (line.startsWith('+')) return paint('good', line);
    if (line.startsWith('-')) return paint('bad', line);
    return line;
  });
}

/**
 * One repair as `forge fix` shows it: what RepairBot did (its summary, the live line), its code,
 * id and status, the files it changed, then the change as a diff (an install-mode repair has none).
 */
export function formatRepair(repair: Repair, paint: Paint): string[] {
  const lines = [
    `${paint('bold', sanitize(repair.summary))}  ${paint('dim', `[${repair.code}, ${repair.id}]`)} ${paint(STATUS_TONE[repair.status], repair.status)}`,
  ];
  if (repair.files.length > 0) lines.push(`  files: ${repair.files.map(sanitize).join(', ')}`);
  if (repair.verification) {
    const v = repair.verification;
    lines.push(`  ${paint(VERIFICATION_TONE[v.status], sanitize(v.detail))}`);
  }
  lines.push(...formatDiff(repair.diff, paint).map((line) => `  ${line}`));
  return lines;
}

/** What `forge fix --undo` restored: each file written back, then the repairs undone. */
export function formatUndo(result: UndoRepairResult, paint: Paint): string[] {
  return [
    ...result.files.map((file) => `${paint('good', 'restored')}  ${sanitize(file)}`),
    ...result.restored.map(
      (repair) =>
        `${paint('dim', 'undone')}    ${sanitize(repair.summary)} ${paint('dim', `[${repair.id}]`)}`,
    ),
  ];
}
