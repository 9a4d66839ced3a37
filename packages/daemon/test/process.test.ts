import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DaemonState, DEFAULT_SETTINGS, DAEMON_LOG_FILE, LOG_DIR, SHUTDOWN_GRACE_MS } from '@forge/shared';
import { cleanup, openSocket, tempDir } from './helpers.ts';
import { spawnDaemon } from './process-helpers.ts';

afterEach(cleanup);

const setup = () => {
  const cwd = tempDir('forge-proc-');
  return { cwd, home: path.join(cwd, 'forge-home') };
};
const statePath = (home: string) => path.join(home, 'daemon.json');

describe('daemon process: run', () => {
  it('writes daemon.json with its live pid, prints the URL, logs JSON lines', async () => {
    const { cwd, home } = setup();
    const daemon = spawnDaemon(['run', '--port', '0'], { home, cwd });
    const url = await daemon.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(daemon.stdout()).toBe(`Forge is running at ${url}\n`);

    const state = DaemonState.parse(JSON.parse(fs.readFileSync(statePath(home), 'utf8')));
    expect(state).toMatchObject({ pid: daemon.child.pid, url, host: '127.0.0.1', version: '1.0.0' });
    expect(state.port).toBe(Number(new URL(url).port));
    expect((await fetch(`${url}/api/health`)).status).toBe(200);

    const lines = fs
      .readFileSync(path.join(home, LOG_DIR, DAEMON_LOG_FILE), 'utf8')
      .trim()
      .split('\n');
    const entries = lines.map((line) => JSON.parse(line) as { level: number; time: number; msg: string });
    expect(
      entries.some(
        (e) => typeof e.level === 'number' && typeof e.time === 'number' && /listening/.test(e.msg),
      ),
    ).toBe(true);
  });

  it('refuses a second start on the same home and names the running URL', async () => {
    const { cwd, home } = setup();
    const first = spawnDaemon(['run', '--port', '0'], { home, cwd });
    const url = await first.url;
    const second = spawnDaemon(['run', '--port', '0'], { home, cwd });
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`Forge is already running at ${url}`);
    expect(second.stdout()).toBe('');
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
  });

  it('stops on SIGTERM: WS clients get 1001, daemon.json is removed, exit 0 within the grace period', async () => {
    const { cwd, home } = setup();
    const daemon = spawnDaemon(['run', '--port', '0'], { home, cwd });
    const url = await daemon.url;
    const socket = await openSocket(url);
    await socket.next('hello');
    const started = Date.now();
    daemon.child.kill('SIGTERM');
    expect((await socket.closed).code).toBe(1001);
    expect(await daemon.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(SHUTDOWN_GRACE_MS);
    expect(fs.existsSync(statePath(home))).toBe(false);
  });

  it('refuses a non-loopback host without an access token', async () => {
    const { cwd, home } = setup();
    const daemon = spawnDaemon(['run', '--host', '0.0.0.0', '--port', '0'], { home, cwd });
    expect(await daemon.exited).toBe(1);
    expect(daemon.stderr()).toMatch(/Refusing to listen on 0\.0\.0\.0 without an access token/);
    expect(daemon.stderr()).toMatch(/FORGE_TOKEN/);
    expect(fs.existsSync(statePath(home))).toBe(false);
  });

  it('keeps the old or the new value when killed -9 during a stream of settings writes', async () => {
    const { cwd, home } = setup();
    const first = spawnDaemon(['run', '--port', '0'], { home, cwd });
    const url = await first.url;
    let acked = DEFAULT_SETTINGS.maxConcurrentBots;
    let inFlight = acked;
    for (let i = 1; ; i++) {
      inFlight = (i % 100) + 1;
      const request = fetch(`${url}/api/settings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ maxConcurrentBots: inFlight }),
      });
      if (i === 40) {
        // Killed while this write is on its way: it may or may not have been committed.
        first.child.kill('SIGKILL');
        await request.catch(() => undefined);
        break;
      }
      const res = await request;
      acked = ((await res.json()) as { maxConcurrentBots: number }).maxConcurrentBots;
      expect(acked).toBe(inFlight);
    }
    expect(await first.exited).toBe('SIGKILL');

    const second = spawnDaemon(['run', '--port', '0'], { home, cwd });
    const url2 = await second.url;
    const settings = (await (await fetch(`${url2}/api/settings`)).json()) as { maxConcurrentBots: number };
    expect([acked, inFlight]).toContain(settings.maxConcurrentBots);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const db = new Database(path.join(home, 'forge.db'), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });
});

describe('daemon process: print-config', () => {
  it('shows env overrides and redacts the token', async () => {
    const { cwd, home } = setup();
    const env = { FORGE_PORT: '5123', FORGE_HOST: 'localhost', FORGE_TOKEN: 'very-secret-token' };
    const json = spawnDaemon(['print-config', '--json'], { home, cwd, env });
    expect(await json.exited).toBe(0);
    expect(JSON.parse(json.stdout())).toEqual({
      home,
      host: 'localhost',
      port: 5123,
      allowedHosts: [],
      accessToken: '***',
      logLevel: 'info',
      configFile: null,
      brain: { provider: null, sessionMinutes: 30 },
      queue: { kind: 'in-process', url: null },
    });
    const text = spawnDaemon(['print-config'], { home, cwd, env });
    expect(await text.exited).toBe(0);
    expect(text.stdout()).toMatch(/^port\s+5123$/m);
    expect(text.stdout()).toMatch(/^accessToken\s+\*\*\*$/m);
    expect(json.stdout() + text.stdout()).not.toContain('very-secret-token');
  });

  it('fails with the path and field of a bad config file', async () => {
    const { cwd, home } = setup();
    const file = path.join(cwd, '.forgerc.json');
    fs.writeFileSync(file, JSON.stringify({ port: 'not-a-port' }));
    const printed = spawnDaemon(['print-config'], { home, cwd });
    expect(await printed.exited).toBe(1);
    expect(printed.stderr()).toContain(file);
    expect(printed.stderr()).toMatch(/port: /);
    const run = spawnDaemon(['run', '--port', '0'], { home, cwd });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain(file);
  });

  it('answers a usage error with exit 2', async () => {
    const { cwd, home } = setup();
    const daemon = spawnDaemon(['run', '--port', 'abc'], { home, cwd });
    expect(await daemon.exited).toBe(2);
    expect(daemon.stderr()).toMatch(/Invalid --port "abc"/);
  });
});
