import { activityTone, TOTAL_BOTS, type BotStatusResponse } from '@forge/shared';

const list = (items: string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/**
 * The swarm status text of /university/bots (spec §2.8), from GET /api/bots/status: how many bots
 * can take work (the daemon counts the bots of a category that are not in error), and where the
 * fleet is busy or failing.
 */
export function swarmSummary(status: BotStatusResponse): string {
  if (!status.success) return 'The swarm did not report its status.';
  const available = status.activities.reduce((sum, a) => sum + a.count, 0);
  const failing = status.activities.filter((a) => activityTone(a.status) === 'error').map((a) => a.type);
  const busy = status.activities.filter((a) => activityTone(a.status) === 'pending').map((a) => a.type);
  const head = `${available} of ${TOTAL_BOTS} bots available`;
  if (failing.length > 0) return `Swarm degraded: ${head}; errors in ${list(failing)}.`;
  if (busy.length > 0) return `Swarm working: ${head}; building in ${list(busy)}.`;
  return `Swarm online: ${head}.`;
}
