import type { BotInfo } from '@forge/shared';
import { BOT_CATEGORIES } from '@forge/shared/schema-free';

/**
 * The swarm status of /university/bots (docs/product.md#other-screens), from the live fleet (GET /api/bots
 * folded with pushed `bot-status` messages): how many bots can take work, who is busy and who is failing.
 * Counts come from the fleet the daemon reports, never from constants.
 */

const list = (items: string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

export const isFailing = (bot: BotInfo): boolean => bot.status === 'error';
export const isBusy = (bot: BotInfo): boolean =>
  !isFailing(bot) && (bot.status === 'building' || bot.currentJob !== null);

/** The badge tone of a bot's status: green when it can work, yellow busy, red failing. */
export function botTone(bot: BotInfo): 'online' | 'pending' | 'error' | 'outline' {
  if (isFailing(bot)) return 'error';
  if (isBusy(bot)) return 'pending';
  return bot.status === 'active' || bot.status === 'idle' ? 'online' : 'outline';
}

export function swarmSummary(bots: readonly BotInfo[]): string {
  if (bots.length === 0) return 'The fleet reported no bots.';
  const failing = bots.filter(isFailing).map((b) => b.name);
  const busy = bots.filter(isBusy).map((b) => b.name);
  const head = `${bots.length - failing.length} of ${bots.length} bots available`;
  if (failing.length > 0) return `Swarm degraded: ${head}; failing: ${list(failing)}.`;
  if (busy.length > 0) return `Swarm working: ${head}; busy: ${list(busy)}.`;
  return `Swarm online: ${head}.`;
}

/** The fleet by category, in the roster's category order (unknown categories last), names sorted. */
export function byCategory(bots: readonly BotInfo[]): { category: string; bots: BotInfo[] }[] {
  const groups = new Map<string, BotInfo[]>();
  for (const bot of bots) groups.set(bot.category, [...(groups.get(bot.category) ?? []), bot]);
  const rank = (c: string) => {
    const i = (BOT_CATEGORIES as readonly string[]).indexOf(c);
    return i === -1 ? BOT_CATEGORIES.length : i;
  };
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([category, members]) => ({
      category,
      bots: members.sort((a, b) => a.name.localeCompare(b.name)),
    }));
}
