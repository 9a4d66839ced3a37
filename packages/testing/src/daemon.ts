import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (tests run the built packages from it). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The built daemon's entry file (`pnpm build`). */
export const DAEMON_MAIN = join(REPO_ROOT, 'packages/daemon/dist/main.js');

/** Environment of a developer's shell or CI that would change what the daemon or forge do. */
export const SCRUBBED_ENV = [
  'CI',
  'FORGE_URL',
  'BOT_SERVICE_URL',
  'FORGE_TOKEN',
  'FORGE_AUTOSTART',
  'FORGE_HOST',
  'FORGE_PORT',
  'FORGE_HOME',
  'FORGE_QUEUE_URL',
  'NO_COLOR',
  'FORCE_COLOR',
];

/** `process.env` without the variables above, plus `extra`. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of SCRUBBED_ENV) delete env[key];
  return { ...env, ...extra };
}

export interface TestDaemon {
  url: string;
  home: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then SIGKILL after 12 s; removes the temporary folders it made. */
  stop(): Promise<void>;
}

const LISTEN_TIMEOUT_MS = 30_000;

/**
 * The built daemon on 127.0.0.1:0 with a temporary FORGE_HOME (unless `home` is given), serving the
 * built web app. Resolves once it prints the URL it listens on.
 */
export async function startDaemon(
  options: { home?: string; env?: NodeJS.ProcessEnv; args?: string[] } = {},
): Promise<TestDaemon> {
  if (!existsSync(DAEMON_MAIN)) throw new Error(`${DAEMON_MAIN} is missing: run pnpm build first.`);
  const ownHome = options.home === undefined;
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'forge-test-home-'));
  const cwd = mkdtempSync(join(tmpdir(), 'forge-test-cwd-'));
  const child = spawn(process.execPath, [DAEMON_MAIN, 'run', '--port', '0', ...(options.args ?? [])], {
    cwd,
    env: cleanEnv({ FORGE_HOME: home, HOME: cwd, ...options.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the daemon did not listen within ${LISTEN_TIMEOUT_MS} ms:\n${out}`));
    }, LISTEN_TIMEOUT_MS);
    const onData = () => {
      const m = /Forge is running at (\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the daemon exited (${code}) before listening:\n${out}`));
    });
  });
  return {
    url,
    home,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
        await exited;
        clearTimeout(timer);
      }
      if (ownHome) rmSync(home, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}
