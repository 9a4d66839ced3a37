import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
export const DAEMON_MAIN = path.join(root, 'packages/daemon/dist/main.js');
export const WEB_DIST = path.join(root, 'packages/web/dist/index.html');

export interface E2eDaemon {
  url: string;
  home: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** The built daemon on 127.0.0.1:0 with a temporary FORGE_HOME, serving the built web app. */
export async function startDaemon(): Promise<E2eDaemon> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-e2e-home-'));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-e2e-cwd-'));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('FORGE_')) env[k] = v;
  const child = spawn(process.execPath, [DAEMON_MAIN, 'run', '--port', '0'], {
    cwd,
    env: { ...env, FORGE_HOME: home, HOME: cwd },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /running at (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`daemon exited (${code}) before listening:\n${stderr}`)));
  });
  return {
    url,
    home,
    child,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(cwd, { recursive: true, force: true });
    },
  };
}
