/**
 * The one way Forge reads a duration a person wrote, on the command line (`--timeout 10m`) and in a
 * project's forge config (`"timeout": "10m"`): numbers with units, largest unit first, each unit at
 * most once — `500ms`, `90s`, `2.5m`, `1h30m`, `1h 30m`. A bare number is refused: seconds or
 * milliseconds? (A forge config may still give a JSON number, which is milliseconds by type.)
 */

const UNITS = [
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
  ['ms', 1],
] as const;

const PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/y;

/** What the grammar expects, for error messages. */
export const DURATION_EXAMPLES = 'a duration such as 90s, 10m, 1h or 1h30m';

/** Milliseconds (rounded), or null when `text` is not a duration of this grammar or is zero. */
export function parseDuration(text: string): number | null {
  const compact = text.replace(/\s+/g, '');
  if (compact === '') return null;
  let total = 0;
  let next = 0; // index into UNITS of the smallest unit still allowed
  PART.lastIndex = 0;
  while (PART.lastIndex < compact.length) {
    const match = PART.exec(compact);
    if (!match) return null;
    const unit = UNITS.findIndex(([name]) => name === match[2]);
    if (unit < next) return null;
    next = unit + 1;
    total += Number(match[1]) * UNITS[unit]![1];
  }
  const ms = Math.round(total);
  return ms > 0 ? ms : null;
}

/** A duration as a person would write it back: 90000 → `1m30s`, 1500 → `1s500ms`. */
export function writeDuration(ms: number): string {
  const parts: string[] = [];
  let rest = Math.round(ms);
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.join('') || '0s';
}
