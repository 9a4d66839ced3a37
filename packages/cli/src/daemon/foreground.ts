import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Run the daemon entry with our stdio and return its exit code. The child gets its own process
 * group, so a terminal Ctrl+C reaches it exactly once: through us. We forward SIGINT/SIGTERM/SIGHUP
 * and keep running until it has finished its graceful stop.
 */
export function runForeground(
  entry: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      stdio: 'inherit',
      env,
      cwd,
      detached: process.platform !== 'win32',
    });
    const forward = (sig: NodeJS.Signals) => {
      child.kill(sig);
    };
    for (const sig of FORWARDED) process.on(sig, forward);
    const cleanup = () => {
      for (const sig of FORWARDED) process.off(sig, forward);
    };
    child.once('error', (err) => {
      cleanup();
      reject(err);
    });
    child.once('exit', (code, sig) => {
      cleanup();
      resolve(code ?? (sig ? 128 + (constants.signals[sig] ?? 0) : 1));
    });
  });
}

/** Run a short daemon entry command (e.g. print-config) with our stdio; resolves with its exit code. */
export function runEntryCommand(
  entry: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], { stdio: 'inherit', env, cwd });
    child.once('error', reject);
    child.once('exit', (code, sig) => resolve(code ?? (sig ? 128 + (constants.signals[sig] ?? 0) : 1)));
  });
}
