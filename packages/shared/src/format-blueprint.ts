import type { Blueprint } from './domain/blueprint.ts';
import { formatCommand, formatDuration, inlineText } from './format.ts';
import { nodeSummary } from './node-summary.ts';

const command = (argv: readonly string[] | null): string =>
  argv ? inlineText(formatCommand(argv)) : '(none)';

/**
 * A plan as `forge plan` and the Forge assistant print it: what will run, then every decision with
 * its evidence — the file it was read from (or "default") and the rule applied. Every value comes
 * from the uploaded project, so all of it is made safe for a terminal.
 */
export function blueprintLines(bp: Blueprint): string[] {
  const envNames = Object.keys(bp.env);
  const summary: [string, string][] = [
    ['kind', bp.kind],
    ['framework', inlineText(bp.framework)],
    ['package manager', bp.packageManager ?? '(none)'],
    ...(bp.node ? [['node', inlineText(nodeSummary(bp.node))] as [string, string]] : []),
    ['install', command(bp.install)],
    ['build', command(bp.build)],
    ['test', command(bp.test)],
    ['start', command(bp.start)],
    ['output dir', bp.outputDir === null ? '(none)' : inlineText(bp.outputDir)],
    ['env', envNames.length > 0 ? inlineText(envNames.join(', ')) : '(none)'],
    ['timeout', `${formatDuration(bp.timeoutMs)} per stage`],
  ];
  const labelWidth = Math.max(...summary.map(([label]) => label.length));
  const lines = ['Plan', ...summary.map(([label, value]) => `  ${label.padEnd(labelWidth)}  ${value}`)];
  if (bp.decisions.length === 0) return lines;

  lines.push('', 'Decisions');
  const fieldWidth = Math.max(...bp.decisions.map((d) => inlineText(d.field).length));
  for (const d of bp.decisions) {
    const evidence = d.file === null ? 'default' : inlineText(d.file);
    lines.push(
      `  ${inlineText(d.field).padEnd(fieldWidth)}  ${inlineText(d.value)}  [${evidence}] ${inlineText(d.rule)}`,
    );
  }
  return lines;
}
