import { formatDuration, type Blueprint, formatCommand, nodeSummary } from '@forge/shared';

/** Values come from the uploaded project: never let them move the cursor or recolour a terminal. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;
const clean = (text: string): string => text.replace(CONTROL, ' ');

const command = (argv: readonly string[] | null): string => (argv ? clean(formatCommand(argv)) : '(none)');

/**
 * The plan as `forge plan` prints it: a summary of what will run, then one line per decision with the
 * file that was the evidence and the rule applied.
 */
export function formatBlueprint(bp: Blueprint): string {
  const envNames = Object.keys(bp.env);
  const summary: [string, string][] = [
    ['kind', bp.kind],
    ['framework', clean(bp.framework)],
    ['package manager', bp.packageManager ?? '(none)'],
    ...(bp.node ? [['node', clean(nodeSummary(bp.node))] as [string, string]] : []),
    ['install', command(bp.install)],
    ['build', command(bp.build)],
    ['test', command(bp.test)],
    ['start', command(bp.start)],
    ['output dir', bp.outputDir === null ? '(none)' : clean(bp.outputDir)],
    ['env', envNames.length > 0 ? clean(envNames.join(', ')) : '(none)'],
    ['timeout', `${formatDuration(bp.timeoutMs)} per stage`],
  ];
  const labelWidth = Math.max(...summary.map(([label]) => label.length));
  const lines = [
    'Plan',
    ...summary.map(([label, value]) => `  ${label.padEnd(labelWidth)}  ${value}`),
    '',
    'Decisions',
  ];

  const fieldWidth = Math.max(0, ...bp.decisions.map((d) => d.field.length));
  for (const d of bp.decisions) {
    const evidence = d.file === null ? 'default' : clean(d.file);
    lines.push(`  ${clean(d.field).padEnd(fieldWidth)}  ${clean(d.value)}  [${evidence}] ${clean(d.rule)}`);
  }
  return lines.join('\n');
}
