import type { BotCategory, BotInfo } from '@forge/shared';
import { BOT_CATEGORIES, BOT_ROSTER } from '@forge/shared/schema-free';

/** The category filter of the Bot Factory: every bot, or one category (docs/product.md#other-screens). */
export type CategoryFilter = 'all' | BotCategory;
export const CATEGORY_FILTERS: readonly CategoryFilter[] = ['all', ...BOT_CATEGORIES];

/** One card: the roster's fixed facts, and the live state once GET /api/bots has answered. */
export interface BotCard {
  name: string;
  category: string;
  description: string;
  /** active | building | error | anything else (neutral); null while the live state is unknown. */
  status: string | null;
  currentJob: string | null;
  jobsRun: number | null;
  failures: number | null;
  /** What it last did (label, whether it went well, when, and its one-line result); null if nothing yet. */
  lastJob: BotInfo['lastJob'];
}

/**
 * The cards in roster order. The roster is fixed on the client (docs/product.md#entities), so the cards and
 * their Build / Fix buttons are there even when the status call fails; the live list fills in status and job
 * counts, and a bot the daemon knows but this client does not is shown after the roster.
 */
export function botCards(live: readonly BotInfo[] | undefined): BotCard[] {
  const byName = new Map((live ?? []).map((b) => [b.name, b]));
  const cards: BotCard[] = BOT_ROSTER.map((bot) => {
    const info = byName.get(bot.name);
    byName.delete(bot.name);
    return {
      name: bot.name,
      category: bot.category,
      description: info?.description || bot.description,
      status: info?.status ?? null,
      currentJob: info?.currentJob ?? null,
      jobsRun: info?.jobsRun ?? null,
      failures: info?.failures ?? null,
      lastJob: info?.lastJob ?? null,
    };
  });
  for (const info of byName.values()) cards.push({ ...info });
  return cards;
}

/** How many cards each filter shows. */
export function categoryCounts(cards: readonly BotCard[]): Record<CategoryFilter, number> {
  const counts = Object.fromEntries(CATEGORY_FILTERS.map((f) => [f, 0])) as Record<CategoryFilter, number>;
  for (const card of cards) {
    counts.all += 1;
    if (card.category in counts) counts[card.category as CategoryFilter] += 1;
  }
  return counts;
}

export const filterCards = (cards: readonly BotCard[], filter: CategoryFilter): BotCard[] =>
  filter === 'all' ? [...cards] : cards.filter((c) => c.category === filter);

/**
 * Status colour (docs/product.md#entities): active green, building yellow, error red, anything else neutral —
 * idle, and `standby` (a bot that cannot take work yet, e.g. AuthBot before the platform issue).
 */
export type StatusTone = 'online' | 'pending' | 'error' | 'outline';
export function statusTone(status: string | null): StatusTone {
  switch (status) {
    case 'active':
      return 'online';
    case 'building':
      return 'pending';
    case 'error':
      return 'error';
    default:
      return 'outline';
  }
}

/** What a status means, for the badge's tooltip (the statuses the daemon gives; others say nothing). */
export const STATUS_HINTS: Readonly<Record<string, string>> = {
  active: 'Ready: it takes work when there is some.',
  building: 'Working on a job now.',
  error: 'Its last job failed.',
  idle: 'Nothing to do right now.',
  standby: 'Cannot take work yet: what it serves is not part of this Forge yet.',
};

const UNITS: ReadonlyArray<[limit: number, size: number, unit: string]> = [
  [60, 1, 's'],
  [60 * 60, 60, 'min'],
  [24 * 60 * 60, 60 * 60, 'h'],
  [Infinity, 24 * 60 * 60, 'd'],
];

/** "just now", "45 s ago", "3 min ago", "2 h ago", "4 d ago" — how long ago `iso` was at `now`. */
export function formatAgo(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.max(0, Math.floor((now - at) / 1000));
  if (seconds < 5) return 'just now';
  const [, size, unit] = UNITS.find(([limit]) => seconds < limit)!;
  return `${Math.floor(seconds / size)} ${unit} ago`;
}
