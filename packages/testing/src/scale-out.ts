import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Build, WorkersResponse } from '@forge/shared';
import { cleanEnv, DAEMON_MAIN } from './daemon.ts';
import { makeZip, type ProjectFiles } from './zip.ts';

/**
 * Scale-out helpers (docs/scale-out.md): a real Redis on a loopback port, `forge worker` processes, and the
 * calls a test makes to a coordinator. Used by the scale-out tests and `pnpm bench scale`.
 */

/** Is Debian's redis-server installed (.ci/run installs it)? */
export const hasRedis = (): boolean =>
  spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** redis-server on 127.0.0.1 and a free port, in memory only; resolves once it answers PING. */
export async function startRedis(opts: { evictionPolicy?: string } = {}): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'forge-redis-'));
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--maxmemory-policy',
      opts.evictionPolicy ?? 'noeviction',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 15_000);
    const onData = () => {
      if (!/Ready to accept connections/i.test(out)) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}):\n${out}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestWorker {
  name: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM twice (cancel what runs), SIGKILL after 15 s. */
  stop(): Promise<void>;
  /** kill -9: the worker dies mid-build. */
  kill(): Promise<void>;
}

/** `node <daemon> worker` for `coordinatorUrl`, with its own FORGE_HOME; resolves once it takes jobs. */
export async function startWorker(opts: {
  name: string;
  queueUrl: string;
  coordinatorUrl: string;
  home?: string;
  concurrency?: number;
  env?: NodeJS.ProcessEnv;
}): Promise<TestWorker> {
  const ownHome = opts.home === undefined;
  const home = opts.home ?? mkdtempSync(join(tmpdir(), `forge-worker-${opts.name}-`));
  const child = spawn(
    process.execPath,
    [
      DAEMON_MAIN,
      'worker',
      '--queue',
      opts.queueUrl,
      '--url',
      opts.coordinatorUrl,
      '--name',
      opts.name,
      '--concurrency',
      String(opts.concurrency ?? 1),
    ],
    { cwd: home, env: cleanEnv({ FORGE_HOME: home, ...opts.env }), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker ${opts.name} did not start:\n${out}`)), 30_000);
    const onData = () => {
      if (!out.includes(`Forge worker ${opts.name} is taking build jobs`)) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker ${opts.name} exited (${code}):\n${out}`));
    });
  });
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const cleanup = () => {
    if (ownHome) rmSync(home, { recursive: true, force: true });
  };
  return {
    name: opts.name,
    child,
    output: () => out,
    async stop() {
      if (!gone()) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      cleanup();
    },
    async kill() {
      if (!gone()) {
        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** Calls a test makes to a coordinator. */
export function coordinatorApi(url: string) {
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${url}${path}`);
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    builds: () => get<Build[]>('/api/builds?limit=500'),
    build: (id: string) => get<Build>(`/api/builds/${id}`),
    workers: () => get<WorkersResponse>('/api/workers'),
    logs: (id: string) =>
      get<{ entries: Array<{ message: string; botName: string }> }>(`/api/builds/${id}/logs`),
    /** Upload `files` as `fileName`; `query` is the upload's query string (`?tests=skip`). */
    async upload(
      fileName: string,
      files: ProjectFiles,
      query = '',
    ): Promise<{ buildId: string; status: string }> {
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(makeZip(files))], { type: 'application/zip' }), fileName);
      const res = await fetch(`${url}/api/upload${query}`, { method: 'POST', body: form });
      if (!res.ok) throw new Error(`upload ${fileName}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { buildId: string; status: string };
    },
    async cancel(id: string): Promise<Build> {
      const res = await fetch(`${url}/api/builds/${id}/cancel`, { method: 'POST' });
      if (!res.ok) throw new Error(`cancel ${id}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Build;
    },
    /** Poll until `pred` holds for the builds (state the test needs, polled; never a fixed sleep). */
    async until<T>(
      what: string,
      probe: () => Promise<T | null | undefined | false>,
      timeoutMs = 90_000,
    ): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      let last: unknown = null;
      for (;;) {
        try {
          const value = await probe();
          if (value) return value;
        } catch (err) {
          last = err;
        }
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
  };
}

/**
 * A project whose build takes about `ms` (it waits, then writes dist/), so a test can catch it
 * running. `marker` appears in its command line (to look for its processes).
 */
export function slowBuildProject(name: string, ms: number, marker = name): ProjectFiles {
  const script = `// ${marker}
const fs = require('fs');
setTimeout(() => {
  fs.mkdirSync('dist', { recursive: true });
  fs.writeFileSync('dist/index.html', '<!doctype html><title>${name}</title><h1>${name} built</h1>');
  console.log('built ${name}');
}, ${ms});
`;
  return {
    'package.json': JSON.stringify(
      { name, version: '1.0.0', private: true, scripts: { build: `node build.js ${marker}` } },
      null,
      2,
    ),
    'build.js': script,
  };
}
