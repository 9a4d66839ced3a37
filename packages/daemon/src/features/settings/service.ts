import {
  DEFAULT_SETTINGS,
  Settings,
  type ServerMessage,
  type SettingKey,
  type SettingUpdate,
} from '@forge/shared';
import type { Logger } from '../../logging/logger.ts';
import type { Store } from '../../store/store.ts';

export interface SettingsService {
  /** Stored values over the defaults. */
  get(): Settings;
  /** Persist one setting (already validated as a SettingUpdate), broadcast and return the result. */
  update(update: SettingUpdate): Settings;
}

export interface SettingsDeps {
  store: Store;
  logger: Logger;
  broadcast: (message: ServerMessage) => void;
  /** Told after every change, so the daemon acts on it (debugMode sets the log level). */
  onChange?: (settings: Settings) => void;
  now?: () => Date;
}

const KNOWN = new Set<string>(Object.keys(Settings.shape));

export function createSettingsService({
  store,
  logger,
  broadcast,
  onChange,
  now = () => new Date(),
}: SettingsDeps): SettingsService {
  const selectAll = store.db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings');
  const upsert = store.db.prepare<[string, string, string]>(
    `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );

  const get = (): Settings => {
    const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS };
    for (const row of selectAll.all()) {
      if (!KNOWN.has(row.key)) continue;
      let value: unknown;
      try {
        value = JSON.parse(row.value);
      } catch {
        value = undefined;
      }
      const field = Settings.shape[row.key as SettingKey].safeParse(value);
      // A value this version cannot read falls back to the default instead of breaking the daemon.
      if (field.success) settings[row.key] = field.data;
      else logger.warn({ key: row.key }, 'ignoring an unreadable stored setting');
    }
    return Settings.parse(settings);
  };

  return {
    get,
    update(update) {
      const entries = Object.entries(update);
      if (entries.length !== 1) throw new Error('A settings update carries exactly one key.');
      const [key, value] = entries[0]!;
      upsert.run(key, JSON.stringify(value), now().toISOString());
      const settings = get();
      logger.info({ key, value }, 'setting updated');
      onChange?.(settings);
      broadcast({ type: 'settings-updated', settings });
      return settings;
    },
  };
}
