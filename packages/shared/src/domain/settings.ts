import { z } from 'zod';
import { DEFAULT_KEEP_ARTIFACTS } from '../constants.ts';
import { DEFAULT_SETTINGS } from './settings-defaults.ts';

export * from './settings-defaults.ts';

/** Settings (docs/product.md#entities). */
export const Settings = z.object({
  botOrchestration: z.boolean(),
  autoRepair: z.boolean(),
  debugMode: z.boolean(),
  /** Shown read-only in the UI; bounds concurrent bot jobs. */
  maxConcurrentBots: z.number().int().min(1).max(100),
  /**
   * How many successful builds each project keeps with their artifacts (its history, what rollback
   * can return to). Defaulted so a client reading an older daemon's settings still parses them.
   */
  keepArtifacts: z.number().int().min(1).max(100).default(DEFAULT_KEEP_ARTIFACTS),
});
export type Settings = z.infer<typeof Settings>;
export type SettingKey = keyof Settings;
export const SETTING_KEYS = Object.keys(Settings.shape) as SettingKey[];

/**
 * POST /api/settings body: exactly one known key with its value (docs/product.md#http-calls).
 * Strict objects refuse unknown keys, `__proto__` included.
 */
export const SettingUpdate = z.union([
  z.strictObject({ botOrchestration: Settings.shape.botOrchestration }),
  z.strictObject({ autoRepair: Settings.shape.autoRepair }),
  z.strictObject({ debugMode: Settings.shape.debugMode }),
  z.strictObject({ maxConcurrentBots: Settings.shape.maxConcurrentBots }),
  z.strictObject({ keepArtifacts: Settings.shape.keepArtifacts.unwrap() }),
]);
export type SettingUpdate = z.infer<typeof SettingUpdate>;

/** Parse a CLI/text value for a setting key into its typed value, or explain why not. */
export function parseSettingValue(
  key: string,
  raw: string,
): { ok: true; update: SettingUpdate } | { ok: false; message: string } {
  if (!(SETTING_KEYS as string[]).includes(key)) {
    return { ok: false, message: `Unknown setting "${key}". Known settings: ${SETTING_KEYS.join(', ')}.` };
  }
  let value: unknown = raw;
  if (raw === 'true' || raw === 'false') value = raw === 'true';
  else if (/^-?\d+$/.test(raw)) value = Number(raw);
  const parsed = SettingUpdate.safeParse({ [key]: value });
  if (!parsed.success) {
    const expected =
      key === 'maxConcurrentBots' || key === 'keepArtifacts' ? 'an integer from 1 to 100' : 'true or false';
    return { ok: false, message: `Invalid value "${raw}" for ${key}: expected ${expected}.` };
  }
  return { ok: true, update: parsed.data };
}

// The defaults (settings-defaults.ts, kept free of zod for a first paint) are a whole, valid Settings.
const _defaultsAreSettings: Settings = DEFAULT_SETTINGS;
void _defaultsAreSettings;
