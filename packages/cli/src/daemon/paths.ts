import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { DAEMON_LOG_FILE, DAEMON_STATE_FILE, LOG_DIR, resolveForgeHome } from '@forge/shared/schema-free';
import { CliError } from '../output.ts';

/** Every file of FORGE_HOME the CLI touches. */
export interface ForgePaths {
  home: string;
  /** `<home>/daemon.json`, written by the daemon once it listens. */
  stateFile: string;
  logFile: string;
  /** The detached daemon's stderr (crashes before its logger is up land here, not in the void). */
  stderrFile: string;
  /** Held while a `forge` process starts the daemon, so two never start two daemons. */
  startLock: string;
}

export function forgePaths(env: NodeJS.ProcessEnv): ForgePaths {
  const home = resolveForgeHome({ platform: process.platform, env, homedir: homedir() });
  const logDir = join(home, LOG_DIR);
  return {
    home,
    stateFile: join(home, DAEMON_STATE_FILE),
    logFile: join(logDir, DAEMON_LOG_FILE),
    stderrFile: join(logDir, 'daemon.stderr.log'),
    startLock: join(home, 'daemon.start.lock'),
  };
}

/**
 * The daemon's built entry file. The CLI runs it as a separate process and never imports it
 * (docs/architecture.md#packages), so it is located through the package, not bundled.
 */
export function daemonEntry(): string {
  let pkg: string;
  try {
    pkg = createRequire(import.meta.url).resolve('@forge/daemon/package.json');
  } catch (err) {
    throw new CliError('Cannot find the @forge/daemon package next to this forge.', {
      hint: 'Reinstall Forge (`pnpm install`), then `pnpm build`.',
      details: [String((err as Error).message)],
    });
  }
  const entry = join(dirname(pkg), 'dist', 'main.js');
  if (!existsSync(entry)) {
    throw new CliError(`The Forge daemon is not built (missing ${entry}).`, {
      hint: 'Run `pnpm build` in the Forge repository.',
    });
  }
  return entry;
}
