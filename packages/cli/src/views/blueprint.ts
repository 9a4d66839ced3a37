import type { Blueprint } from '@forge/shared';
import { formatCommand, formatDuration, frameworkWithStack, nodeSummary } from '@forge/shared/schema-free';
import { sanitize } from '../terminal.ts';

const command = (argv: readonly string[] | null): string => (argv ? sanitize(formatCommand(argv)) : '(none)');

/**
 * `forge plan`: what Forge would run, then every decision with its evidence — the file it was read
 * from (or "default") and the rule applied. Every value comes from the uploaded project, so all of
 * it is sanitised for the terminal.
 */
export function formatBlueprint(bp: Blueprint): string[] {
  const envNames = Object.keys(bp.env);
  const summary: [string, string][] = [
    ['kind', bp.kind],
    ['framework', sanitize(frameworkWithStack(bp))],
    ...(bp.runtime
      ? [
          [
            'runtime',
            sanitize(
              `${bp.runtime.tool}${bp.runtime.found ? ` ${bp.runtime.found}` : ''}${bp.runtime.wanted ? ` (asks for ${bp.runtime.wanted})` : ''}`,
            ),
          ] as [string, string],
        ]
      : []),
    ['package manager', bp.packageManager ?? '(none)'],
    ...(bp.node ? [['node', sanitize(nodeSummary(bp.node))] as [string, string]] : []),
    ['install', command(bp.install)],
    ['build', command(bp.build)],
    ['test', command(bp.test)],
    ['start', command(bp.start)],
    ['output dir', bp.outputDir === null ? '(none)' : sanitize(bp.outputDir)],
    ['env', envNames.length > 0 ? sanitize(envNames.join(', ')) : '(none)'],
    ['timeout', `${formatDuration(bp.timeoutMs)} per stage`],
  ];
  const labelWidth = Math.max(...summary.map(([label]) => label.length));
  const lines = ['Plan', ...summary.map(([label, value]) => `  ${label.padEnd(labelWidth)}  ${value}`)];
  if (bp.decisions.length === 0) return lines;

  lines.push('', 'Decisions');
  const fieldWidth = Math.max(...bp.decisions.map((d) => sanitize(d.field).length));
  for (const d of bp.decisions) {
    const evidence = d.file === null ? 'default' : sanitize(d.file);
    lines.push(
      `  ${sanitize(d.field).padEnd(fieldWidth)}  ${sanitize(d.value)}  [${evidence}] ${sanitize(d.rule)}`,
    );
  }
  return lines;
}
