import { activityTone, BOT_CATEGORIES, type BotInfo } from '@forge/shared';

/** Ink colour names for the three tones of docs/product.md#routes-and-navigation. */
export type ToneColor = 'green' | 'yellow' | 'red';

const ACTIVITY_COLOR: Record<ReturnType<typeof activityTone>, ToneColor> = {
  online: 'green',
  pending: 'yellow',
  error: 'red',
};

/** Colour of an activity (category) status, via the web's shared `activityTone`. */
export const activityColor = (status: string): ToneColor => ACTIVITY_COLOR[activityTone(status)];

/** Colour of one bot's status, as the web: active/online green, building/pending yellow, else red. */
export function botColor(status: string): ToneColor {
  if (status === 'active' || status === 'online') return 'green';
  if (status === 'building' || status === 'pending') return 'yellow';
  return 'red';
}

export interface FleetGroup {
  category: string;
  /** "Infrastructure" for "infrastructure". */
  label: string;
  bots: BotInfo[];
  /** Bots of the category not in error (the count of GET /api/bots/status). */
  healthy: number;
  /** The category's activity status, by the daemon's rule: error, else pending, else online. */
  status: 'online' | 'pending' | 'error';
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The fleet by category, in the roster's category order (unknown categories after, by name), bots
 * in the daemon's roster order. The category rows are computed from the same bot list as the bot
 * rows, with the daemon's own rule for GET /api/bots/status, so header and rows never disagree.
 */
export function groupFleet(bots: readonly BotInfo[]): FleetGroup[] {
  const byCategory = new Map<string, BotInfo[]>();
  for (const category of BOT_CATEGORIES) byCategory.set(category, []);
  for (const bot of bots) {
    const list = byCategory.get(bot.category) ?? [];
    list.push(bot);
    byCategory.set(bot.category, list);
  }
  const known = new Set<string>(BOT_CATEGORIES);
  const order = [
    ...BOT_CATEGORIES,
    ...[...byCategory.keys()].filter((c) => !known.has(c)).sort((a, b) => a.localeCompare(b)),
  ];
  return order
    .map((category) => {
      const list = byCategory.get(category) ?? [];
      const failing = list.filter((b) => b.status === 'error').length;
      const busy = list.some((b) => b.status === 'building');
      return {
        category,
        label: capitalize(category),
        bots: list,
        healthy: list.length - failing,
        status: failing > 0 ? ('error' as const) : busy ? ('pending' as const) : ('online' as const),
      };
    })
    .filter((group) => group.bots.length > 0);
}
