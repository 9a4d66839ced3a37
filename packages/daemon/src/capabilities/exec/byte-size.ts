const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
};

/**
 * "512m", "2 GB", "1048576" → bytes (powers of 1024); undefined for a missing, malformed or
 * non-positive value, so a typo in an operator's setting falls back to the default instead of 0.
 */
export function parseByteSize(text: string | undefined): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text ?? '');
  if (!match) return undefined;
  const unit = UNITS[match[2]!.toLowerCase()];
  if (unit === undefined) return undefined;
  const bytes = Math.floor(Number(match[1]) * unit);
  return bytes > 0 && Number.isSafeInteger(bytes) ? bytes : undefined;
}
