import type { FamilyChatMessage } from '@forge/shared';

/**
 * The university family chat (docs/decisions.md#the-university-authbot): messages persist in the daemon's
 * store and reach every signed-in family member live over /ws. The same message can arrive twice (the POST's
 * answer and its /ws echo, or a push racing the history read), so the history is merged by id.
 */

/** `current` with `incoming` added once each, oldest first (by time, then id for equal times). */
export function mergeMessages(
  current: readonly FamilyChatMessage[],
  incoming: readonly FamilyChatMessage[],
): FamilyChatMessage[] {
  const known = new Set(current.map((m) => m.id));
  const added = incoming.filter((m) => {
    if (known.has(m.id)) return false;
    known.add(m.id);
    return true;
  });
  if (added.length === 0) return [...current];
  return [...current, ...added].sort((a, b) =>
    a.at === b.at ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.at < b.at ? -1 : 1,
  );
}
