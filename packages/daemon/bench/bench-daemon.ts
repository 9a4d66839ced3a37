import { spawn } from 'node:child_process';

/** A built daemon (`dist/main.js run --port 0`) running for a bench, until `stop()`. */
export interface BenchDaemon {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Start the daemon with `env` and resolve once it prints where it is running. `main` is the built
 * entry, or Node's arguments before `run` (`['--import', 'tsx', 'src/main.ts']` for the sources).
 */
export async function startBenchDaemon(
  main: string | readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<BenchDaemon> {
  const child = spawn(
    process.execPath,
    [...(typeof main === 'string' ? [main] : main), 'run', '--port', '0'],
    {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /running at (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`daemon exited ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
