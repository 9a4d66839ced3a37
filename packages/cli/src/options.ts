import { InvalidArgumentError } from 'commander';
import { DURATION_EXAMPLES, parseDuration as readDuration, writeDuration } from '@forge/shared/schema-free';
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

/** The longest `--timeout`: a day (a longer CI wait is surely a typo). */
export const MAX_DURATION_MS = 24 * 3_600_000;

/** `--timeout <duration>`: Forge's one duration grammar (`90s`, `10m`, `1h30m`), up to a day. */
export function parseDuration(value: string): number {
  const ms = readDuration(value);
  if (ms === null || ms > MAX_DURATION_MS) {
    throw new InvalidArgumentError(`expected ${DURATION_EXAMPLES}, up to 24h.`);
  }
  return ms;
}

/** A duration as the user would write it back: `1h30m`, `90s` → `1m30s`, `500ms`. */
export const formatTimeout = writeDuration;
