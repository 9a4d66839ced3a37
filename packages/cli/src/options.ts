import { InvalidArgumentError } from 'commander';
import { workerNameProblem } from './protocol/facts.ts';

/** `--port N`: 0 (any free port) to 65535. */
export function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65_535) {
    throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  }
  return Number(value);
}

/** A whole number of at least 0 (e.g. `-n 50`). */
export function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number (0 or more).');
  return Number(value);
}

/** `--host H`: a non-empty host name or address. */
export function parseHost(value: string): string {
  const host = value.trim();
  if (!host || /[\s/]/.test(host)) throw new InvalidArgumentError('expected a host name or IP address.');
  return host;
}

/** A whole number from 1 to `max` (e.g. `--limit 20`). */
export const parsePositive =
  (max: number) =>
  (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
      throw new InvalidArgumentError(`expected a whole number from 1 to ${max}.`);
    }
    return Number(value);
  };

/** `forge worker --name`: a name the coordinator accepts (it shows in build records and logs). */
export function parseWorkerName(value: string): string {
  const problem = workerNameProblem(value);
  if (problem) throw new InvalidArgumentError(`a worker name ${problem}.`);
  return value;
}

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
/** The longest `--timeout`: a day (a longer CI wait is surely a typo). */
export const MAX_DURATION_MS = 24 * 3_600_000;

/**
 * `--timeout <duration>`: whole numbers with a unit, largest first, each unit once: `90s`, `10m`,
 * `1h`, `1h30m`, `500ms`. A bare number is refused (seconds or milliseconds?), and so is zero.
 */
export function parseDuration(value: string): number {
  const match = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+)s)?(?:(\d+)ms)?$/.exec(value.trim());
  const parts = match?.slice(1) ?? [];
  const ms = parts.reduce(
    (total, amount, i) =>
      total + (amount === undefined ? 0 : Number(amount) * DURATION_UNITS_MS[['h', 'm', 's', 'ms'][i]!]!),
    0,
  );
  if (!match || parts.every((p) => p === undefined) || ms <= 0 || ms > MAX_DURATION_MS) {
    throw new InvalidArgumentError('expected a duration from 1ms to 24h such as 90s, 10m, 1h or 1h30m.');
  }
  return ms;
}

/** A duration as the user would write it back: `1h30m`, `90s` → `1m30s`, `500ms`. */
export function formatTimeout(ms: number): string {
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
    ['ms', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.join('') || '0s';
}
