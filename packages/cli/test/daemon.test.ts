import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitOf, isAlive, Sandbox, waitForOutput } from './helpers.ts';

// The daemon's lifecycle as a user drives it. Each test has its own FORGE_HOME and daemon.
let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await Sandbox.create();
});
afterEach(async () => {
  await sandbox.dispose();
});

interface StatusJson {
  status: string;
  url?: string;
  pid?: number;
  version?: string;
  uptimeMs?: number;
  staleStateFile?: { pid: number | null } | null;
}

describe('forge daemon start / status / stop', () => {
  it('starts once, reports running, refuses a second start, stops', async () => {
    const start = await sandbox.run(['daemon', 'start']);
    expect(start.code, start.stderr).toBe(0);
    const url = start.stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = (await (await fetch(`${url}/api/health`)).json()) as { ok: boolean };
    expect(health.ok).toBe(true);

    const status = await sandbox.run(['daemon', 'status', '--json']);
    expect(status.code).toBe(0);
    const running = JSON.parse(status.stdout) as StatusJson;
    const state = sandbox.state();
    expect(running).toMatchObject({ status: 'running', url, pid: state?.pid });
    expect(running.uptimeMs).toBeGreaterThanOrEqual(0);

    const second = await sandbox.run(['daemon', 'start']);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`Forge is already running at ${url}`);
    expect(second.stdout).toBe('');

    const stop = await sandbox.run(['daemon', 'stop']);
    expect(stop.code).toBe(0);
    expect(stop.stdout.trim()).toBe('Forge stopped');
    expect(isAlive(state!.pid)).toBe(false);
    expect(existsSync(sandbox.stateFile)).toBe(false);
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();

    const after = await sandbox.run(['daemon', 'status']);
    expect(after.code).toBe(3);
    expect(after.stdout.trim()).toBe('stopped');
  });

  it('after kill -9, status reports a stale state file and settings get starts a fresh daemon', async () => {
    expect((await sandbox.run(['daemon', 'start'])).code).toBe(0);
    const old = sandbox.state()!;
    process.kill(old.pid, 'SIGKILL');
    await expect.poll(() => isAlive(old.pid)).toBe(false);
    expect(existsSync(sandbox.stateFile)).toBe(true);

    const status = await sandbox.run(['daemon', 'status']);
    expect(status.code).toBe(3);
    expect(status.stdout.trim()).toBe(`stopped (removed a stale state file from pid ${old.pid})`);
    expect(existsSync(sandbox.stateFile)).toBe(false);

    const get = await sandbox.run(['settings', 'get', '--json']);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stderr).toMatch(/Starting the Forge daemon… running at http:\/\/127\.0\.0\.1:\d+/);
    expect(JSON.parse(get.stdout)).toMatchObject({ botOrchestration: true, maxConcurrentBots: 25 });
    const fresh = sandbox.state()!;
    expect(fresh.pid).not.toBe(old.pid);
    expect(isAlive(fresh.pid)).toBe(true);
  });

  it('under CI=true, --start-daemon starts the daemon when needed', async () => {
    const get = await sandbox.run(['--start-daemon', 'settings', 'get', 'autoRepair'], { CI: 'true' });
    expect(get.code, get.stderr).toBe(0);
    expect(get.stderr).toContain('Starting the Forge daemon…');
    expect(get.stdout.trim()).toBe('true');
    expect(sandbox.state()).toBeDefined();
  });

  it('a daemon that dies while starting fails with exit 1 and shows why', async () => {
    // A non-loopback host without an access token: the daemon refuses to start.
    const start = await sandbox.run(['daemon', 'start', '--host', '0.0.0.0']);
    expect(start.code).toBe(1);
    expect(start.stdout).toBe('');
    expect(start.stderr).toContain('The Forge daemon exited with code 1 before it was ready.');
    expect(start.stderr).toMatch(/token/i);
    expect(existsSync(sandbox.stateFile)).toBe(false);
  });
});

describe('forge daemon run', () => {
  it('runs in the foreground and stops cleanly on Ctrl+C (SIGINT)', async () => {
    const child = sandbox.spawn(['daemon', 'run']);
    const seen = await waitForOutput(child.stdout, /Forge is running at (http:\/\/\S+)/);
    const url = /Forge is running at (http:\/\/\S+)/.exec(seen)![1];
    const state = sandbox.state()!;
    expect(state.url).toBe(url);

    const status = await sandbox.run(['daemon', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'running', url });

    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(0);
    expect(isAlive(state.pid)).toBe(false);
    expect(existsSync(sandbox.stateFile)).toBe(false);
  });
});

describe('forge daemon logs', () => {
  it('prints human lines, raw JSON with --json, and follows with -f until Ctrl+C', async () => {
    expect((await sandbox.run(['daemon', 'start'])).code).toBe(0);

    const logs = await sandbox.run(['daemon', 'logs']);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toMatch(/^\d\d:\d\d:\d\d INFO {2}\S/m);

    const raw = await sandbox.run(['daemon', 'logs', '--json', '-n', '1']);
    const lines = raw.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: expect.any(Number), msg: expect.any(String) });

    const follow = sandbox.spawn(['daemon', 'logs', '-f', '-n', '0']);
    await waitForOutput(follow.stderr, /Following the daemon log/);
    // A settings change is logged by the daemon; the follower must show it.
    expect((await sandbox.run(['settings', 'set', 'debugMode', 'true'])).code).toBe(0);
    const followed = await waitForOutput(follow.stdout, /\d\d:\d\d:\d\d \w+ +\S/);
    expect(followed).not.toContain('{"level"');
    follow.kill('SIGINT');
    expect(await exitOf(follow)).toBe(0);
  });
});

describe('settings, open and --url against a running daemon', () => {
  it('set/get roundtrip; invalid values exit 2 and change nothing', async () => {
    const start = await sandbox.run(['daemon', 'start']);
    const url = start.stdout.trim();

    const set = await sandbox.run(['settings', 'set', 'maxConcurrentBots', '7']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout.trim()).toBe('maxConcurrentBots = 7');
    expect((await sandbox.run(['settings', 'set', 'debugMode', 'true'])).code).toBe(0);

    const one = await sandbox.run(['settings', 'get', 'maxConcurrentBots']);
    expect(one.stdout.trim()).toBe('7');
    const all = await sandbox.run(['settings', 'get', '--json']);
    expect(JSON.parse(all.stdout)).toEqual({
      botOrchestration: true,
      autoRepair: true,
      debugMode: true,
      maxConcurrentBots: 7,
      keepArtifacts: 10,
    });
    const human = await sandbox.run(['settings', 'get']);
    expect(human.stdout).toMatch(/^debugMode +true$/m);

    const bad = await sandbox.run(['settings', 'set', 'debugMode', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Invalid value "maybe" for debugMode: expected true or false.');
    expect((await sandbox.run(['settings', 'get', 'debugMode'])).stdout.trim()).toBe('true');

    // --url reaches the same daemon, also under CI (a daemon elsewhere is never started anyway).
    const remote = await sandbox.run(['--url', url, 'settings', 'get', 'maxConcurrentBots'], { CI: 'true' });
    expect(remote.code).toBe(0);
    expect(remote.stdout.trim()).toBe('7');
    expect(remote.stderr).toBe('');

    // Settings live in the store: they survive a restart.
    expect((await sandbox.run(['daemon', 'stop'])).code).toBe(0);
    const again = await sandbox.run(['settings', 'get', 'maxConcurrentBots']);
    expect(again.stdout.trim()).toBe('7');
  });

  it('open --no-browser prints the workspace URL, with ?token= when a token is given', async () => {
    const url = (await sandbox.run(['daemon', 'start'])).stdout.trim();
    const open = await sandbox.run(['open', '--no-browser']);
    expect(open.code).toBe(0);
    expect(open.stdout.trim()).toBe(`${url}/`);
    const withToken = await sandbox.run(['open', '--no-browser', '--token', 'abc 123']);
    expect(withToken.stdout.trim()).toBe(`${url}/?token=abc+123`);
  });
});

describe('the state file', () => {
  it('is written by the daemon with the fields clients rely on', async () => {
    expect((await sandbox.run(['daemon', 'start'])).code).toBe(0);
    const state = JSON.parse(readFileSync(sandbox.stateFile, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(state).sort()).toEqual(['host', 'pid', 'port', 'startedAt', 'url', 'version']);
  });
});
