import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { CliError, EXIT } from '../output.ts';
import { SETTING_KEYS } from '../protocol/facts.ts';

export interface SettingsGetOptions {
  key?: string;
  json?: boolean;
}

export interface SettingsSetOptions {
  key: string;
  value: string;
  json?: boolean;
}

/** All settings (aligned `key  value` lines), or one value; JSON with --json. */
export async function runGet(deps: Deps, opts: SettingsGetOptions): Promise<number> {
  const key = opts.key;
  // Checked before contacting (or starting) the daemon: a typo is a usage error.
  if (key !== undefined && !SETTING_KEYS.includes(key)) {
    throw new CliError(`Unknown setting "${key}". Known settings: ${SETTING_KEYS.join(', ')}.`, {
      exitCode: EXIT.usage,
    });
  }
  const { client } = await deps.connect();
  const settings = await client.request('getSettings');
  if (key !== undefined) {
    const value = settings[key as keyof typeof settings];
    if (opts.json) deps.out.json(value);
    else deps.out.data(String(value));
    return 0;
  }
  if (opts.json) deps.out.json(settings);
  else printSettings(deps, settings);
  return 0;
}

/** Change one setting; the value is parsed and checked here first (invalid → exit 2). */
export async function runSet(deps: Deps, opts: SettingsSetOptions): Promise<number> {
  const { parseSettingValue } = await import('@forge/shared');
  const parsed = parseSettingValue(opts.key, opts.value);
  if (!parsed.ok) throw new CliError(parsed.message, { exitCode: EXIT.usage });
  const { client } = await deps.connect();
  const settings = await client.request('updateSetting', { body: parsed.update });
  if (opts.json) deps.out.json(settings);
  else deps.out.data(`${opts.key} = ${String(settings[opts.key as keyof typeof settings])}`);
  return 0;
}

function printSettings(deps: Deps, settings: Record<string, unknown>): void {
  const width = Math.max(...Object.keys(settings).map((k) => k.length));
  for (const [k, v] of Object.entries(settings)) deps.out.data(`${k.padEnd(width)}  ${String(v)}`);
}

export function register(program: Command, invoke: Invoke): void {
  const settings = program.command('settings').description("read or change the daemon's settings");
  settings
    .command('get')
    .description('print all settings, or the value of one')
    .argument('[key]', 'botOrchestration, autoRepair, debugMode, maxConcurrentBots or keepArtifacts')
    .option('--json', 'print JSON')
    .action((key: string | undefined, opts: { json?: boolean }, command: Command) =>
      invoke(command, runGet, { key, json: opts.json }),
    );
  settings
    .command('set')
    .description('change one setting (booleans: true/false; maxConcurrentBots, keepArtifacts: 1-100)')
    .argument('<key>', 'the setting')
    .argument('<value>', 'its new value')
    .option('--json', 'print all settings after the change as JSON')
    .action((key: string, value: string, opts: { json?: boolean }, command: Command) =>
      invoke(command, runSet, { key, value, json: opts.json }),
    );
}
