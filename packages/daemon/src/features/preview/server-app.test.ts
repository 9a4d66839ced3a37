import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  eventually,
  isRunning,
  killQuietly,
  makeTempDir,
  nodeScript,
} from '../../pipeline/run/test-support.ts';
import { ServerAppStartError, startServerApp, type ServerApp } from './server-app.ts';
import { HELLO_APP, rawRequest, refusesConnections } from './test-support.ts';

let dir: string;
let cleanup: () => Promise<void>;
const pids: number[] = [];
const apps: ServerApp[] = [];

const pidsOf = (line: { text: string }) => {
  const pid = /^pid=(\d+)$/.exec(line.text)?.[1];
  if (pid) pids.push(Number(pid));
};

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-server-app-'));
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.stop()));
  killQuietly(pids.splice(0));
  await cleanup();
});

describe('startServerApp', () => {
  it('runs the app with PORT and HOST, resolves once it answers, and stop() ends it', async () => {
    const argv = await nodeScript(dir, 'app.mjs', HELLO_APP);
    const lines: string[] = [];
    const app = await startServerApp({
      argv,
      cwd: dir,
      env: { GREETING: 'hi' },
      onLine: (line) => {
        lines.push(line.text);
        pidsOf(line);
      },
    });
    apps.push(app);
    expect(app.url).toBe(`http://127.0.0.1:${app.port}`);
    const res = await rawRequest(app.url, '/');
    expect(res.body).toBe(`hello from ${app.port} hi`);
    expect(await isRunning(app.pid)).toBe(true);

    await app.stop();
    expect(await isRunning(app.pid)).toBe(false);
    expect(await refusesConnections(app.url)).toBe(true);
    expect((await app.exited).outcome).toBe('cancelled');
    expect(lines).toContain(`listening on ${app.port}`);
  });

  it('rejects with the exit and the last output when the app exits before listening', async () => {
    const argv = await nodeScript(
      dir,
      'crash.mjs',
      `console.log('starting'); console.error('Error: DATABASE_URL is not set'); process.exit(2);`,
    );
    const error = await startServerApp({ argv, cwd: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerAppStartError);
    const startError = error as ServerAppStartError;
    expect(startError.message).toMatch(
      /stopped before it accepted connections on port \d+: it exited with code 2/,
    );
    expect(startError.message).toContain('Error: DATABASE_URL is not set');
    expect(startError.output).toBe('starting\nError: DATABASE_URL is not set');
    expect(startError.result?.exitCode).toBe(2);
  });

  it('reports a start command that cannot run', async () => {
    await expect(startServerApp({ argv: ['forge-no-such-server-binary'], cwd: dir })).rejects.toThrow(
      /Could not start "forge-no-such-server-binary"/,
    );
  });

  it('stops an app that never listens once the ready timeout passes', async () => {
    const argv = await nodeScript(
      dir,
      'mute.mjs',
      `console.log('pid=' + process.pid); console.log('warming up'); setInterval(() => {}, 1000);`,
    );
    const started = Date.now();
    const error = await startServerApp({ argv, cwd: dir, readyTimeoutMs: 1_000, onLine: pidsOf }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerAppStartError);
    expect((error as Error).message).toMatch(
      /did not accept connections on port \d+ within 1 s; it was stopped/,
    );
    expect((error as Error).message).toContain('warming up');
    expect((error as ServerAppStartError).result?.outcome).toBe('timed-out');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(pids).toHaveLength(1);
    expect(await isRunning(pids[0]!)).toBe(false);
  });

  it('stops the app when the signal aborts before it is ready', async () => {
    const argv = await nodeScript(
      dir,
      'slow.mjs',
      `console.log('pid=' + process.pid); setInterval(() => {}, 1000);`,
    );
    const controller = new AbortController();
    const starting = startServerApp({
      argv,
      cwd: dir,
      signal: controller.signal,
      onLine: (line) => {
        pidsOf(line);
        if (line.text.startsWith('pid=')) controller.abort(new Error('build cancelled'));
      },
    });
    await expect(starting).rejects.toThrow('build cancelled');
    expect(pids).toHaveLength(1);
    expect(await eventually(async () => !(await isRunning(pids[0]!)))).toBe(true);
  });
});
