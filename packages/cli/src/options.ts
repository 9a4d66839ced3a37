import { InvalidArgumentError } from 'commander';

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
