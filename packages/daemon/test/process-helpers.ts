import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { onCleanup } from './helpers.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface DaemonProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
  /** Resolves with the URL from "Forge is running at <url>"; rejects if the process exits first. */
  url: Promise<string>;
}

/**
 * Spawn `node --import tsx src/main.ts <args>` with an isolated environment: HOME and cwd are the
 * temp dir (no config of the machine leaks in), FORGE_HOME as given. Killed on cleanup.
 */
export function spawnDaemon(
  args: string[],
  options: { home: string; cwd: string; env?: Record<string, string> },
): DaemonProcess {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('FORGE_') && !key.startsWith('XDG_')) env[key] = value;
  }
  Object.assign(env, { HOME: options.cwd, FORGE_HOME: options.home, NO_COLOR: '1' }, options.env);
  const child = spawn(process.execPath, ['--import', TSX, MAIN, ...args], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const url = new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /Forge is running at (\S+)\n/.exec(out);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => reject(new Error(`daemon exited (${code}) before listening:\n${err}`)));
  });
  url.catch(() => undefined);
  onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return { child, stdout: () => out, stderr: () => err, exited, url };
}

export const mainPath = MAIN;
export const relative = (p: string) => path.relative(process.cwd(), p);
