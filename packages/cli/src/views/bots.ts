import type { BotInfo } from '@forge/shared';
import { BOT_CATEGORIES, botButtonDisabled } from '../protocol/facts.ts';
import { formatTable } from '../table.ts';
import { sanitize, type Tone } from '../terminal.ts';

/** Bot status colours as the web UI uses them: active green, building yellow, error red. */
export function botStatusTone(status: string): Tone | undefined {
  switch (status) {
    case 'active':
    case 'online':
      return 'good';
    case 'building':
    case 'pending':
      return 'warn';
    case 'error':
      return 'bad';
    default:
      return undefined;
  }
}

/** "Build and Fix disabled: <reason>" (or one of them) for a bot card's disabled buttons; null when none is. */
export function disabledButtons(bot: string): string | null {
  const build = botButtonDisabled(bot, 'build');
  const fix = botButtonDisabled(bot, 'fix');
  if (build && build === fix) return `Build and Fix disabled: ${sanitize(build)}`;
  const parts = [
    build ? `Build disabled: ${sanitize(build)}` : null,
    fix ? `Fix disabled: ${sanitize(fix)}` : null,
  ];
  return parts.filter(Boolean).join('; ') || null;
}

/**
 * `forge bots`: the fleet grouped by category (infrastructure, development, operations, services, then
 * any other category the daemon reports), each bot with its status, current job, jobs run and failures,
 * and under it the reason its card's Build or Fix is disabled when one is.
 */
export function formatBots(
  bots: readonly BotInfo[],
  paint: (tone: Tone | undefined, text: string) => string,
): string[] {
  const known: readonly string[] = BOT_CATEGORIES;
  const categories = [...known, ...new Set(bots.map((b) => b.category).filter((c) => !known.includes(c)))];
  const nameWidth = Math.max(0, ...bots.map((b) => b.name.length));
  const lines: string[] = [];
  for (const category of categories) {
    const members = bots.filter((b) => b.category === category);
    if (members.length === 0) continue;
    if (lines.length > 0) lines.push('');
    lines.push(paint('bold', `${sanitize(category)} (${members.length})`));
    const rows = members.map((b) => [
      sanitize(b.name).padEnd(nameWidth),
      { text: sanitize(b.status), tone: botStatusTone(b.status) },
      String(b.jobsRun),
      { text: String(b.failures), tone: b.failures > 0 ? ('bad' as const) : undefined },
      sanitize(b.currentJob ?? '-'),
    ]);
    const [header, ...table] = formatTable(
      ['NAME', 'STATUS', 'JOBS', 'FAILURES', 'CURRENT JOB'],
      rows,
      paint,
    );
    lines.push(`  ${header}`);
    table.forEach((line, i) => {
      lines.push(`  ${line}`);
      const off = disabledButtons(members[i]!.name);
      if (off) lines.push(paint('dim', `      ${off}`));
    });
  }
  return lines;
}
