/**
 * The real `forge tui` in a real terminal: a detached tmux session (160×45) runs the built CLI
 * against a real daemon (temp FORGE_HOME, port 0); the test uploads a static site with `u`, reads
 * the stage from `tmux capture-pane`, quits with `q` and checks the shell's screen came back.
 *
 * Needs tmux and the built CLI, daemon and dashboard (`pnpm build`); skipped, saying which, without.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeZip } from '@forge/testing';

const REPO = resolve(import.meta.dirname, '../../..');
const FORGE_BIN = join(REPO, 'packages/cli/bin/forge.js');
const BUILT = ['packages/cli/dist/forge.js', 'packages/daemon/dist/main.js', 'packages/tui/dist/index.js'];
const COLUMNS = 160;
const ROWS = 45;
/** The shell prompt inside the session: what "back to the shell" looks like. */
const PROMPT = 'forge-tmux-test$ ';
/** capture-pane drops trailing spaces: the prompt as it reads on an empty command line. */
const BARE_PROMPT = PROMPT.trimEnd();

const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
const missing = BUILT.filter((file) => !existsSync(join(REPO, file)));
const skipReason = !hasTmux
  ? 'tmux is not installed (apt-get install -y tmux)'
  : missing.length > 0
    ? `the built ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing (run pnpm build)`
    : null;
if (skipReason) console.warn(`tmux test skipped: ${skipReason}`);

/** Environment of the developer's shell or CI that would change what forge or Ink do. */
const SCRUBBED = [
  'CI',
  'FORGE_URL',
  'BOT_SERVICE_URL',
  'FORGE_TOKEN',
  'FORGE_HOST',
  'FORGE_PORT',
  'NO_COLOR',
  'FORCE_COLOR',
];

const poll = async <T,>(
  what: string,
  read: () => T | undefined,
  timeoutMs: number,
  last: () => string,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}. Screen:\n${last()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe.skipIf(skipReason !== null)('forge tui in tmux', () => {
  let home: string;
  let cwd: string;
  let socket: string;
  let daemon: ChildProcess | undefined;
  let url: string;

  const tmux = (...args: string[]) => {
    const result = spawnSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`tmux ${args.join(' ')} failed: ${result.stderr}`);
    return result.stdout;
  };
  const screen = () => tmux('capture-pane', '-p', '-t', 'forge');
  const waitForScreen = (what: string, test: (text: string) => boolean, timeoutMs = 15_000) =>
    poll(
      what,
      () => {
        const text = screen();
        return test(text) ? text : undefined;
      },
      timeoutMs,
      screen,
    );

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'forge-tui-tmux-home-'));
    cwd = await mkdtemp(join(tmpdir(), 'forge-tui-tmux-cwd-'));
    // A private tmux server: the developer's sessions are never touched.
    socket = join(cwd, 'tmux.sock');
    await writeFile(
      join(cwd, 'hello-site.zip'),
      makeZip({ 'index.html': '<!doctype html><title>Hello</title><h1>Hello from tmux</h1>\n' }),
    );

    const env: NodeJS.ProcessEnv = { ...process.env, FORGE_HOME: home };
    for (const key of SCRUBBED) delete env[key];
    daemon = spawn(process.execPath, [join(REPO, 'packages/daemon/dist/main.js'), 'run', '--port', '0'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    daemon.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    daemon.stderr?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    url = await poll(
      'the daemon to listen',
      () => /Forge is running at (\S+)/.exec(out)?.[1],
      15_000,
      () => out,
    );
  }, 30_000);

  afterAll(async () => {
    if (socket) spawnSync('tmux', ['-S', socket, 'kill-server'], { stdio: 'ignore' });
    if (daemon && daemon.exitCode === null) {
      const exited = once(daemon, 'exit');
      daemon.kill('SIGTERM');
      const timer = setTimeout(() => daemon?.kill('SIGKILL'), 12_000);
      await exited;
      clearTimeout(timer);
    }
    if (home) await rm(home, { recursive: true, force: true });
    if (cwd) await rm(cwd, { recursive: true, force: true });
  }, 30_000);

  it('uploads a ZIP with u, shows the build reaching Integration Available, and gives the shell back on q', async () => {
    // A plain sh with a known prompt, in the fixture's folder, without CI (Ink draws nothing live
    // under CI) and pointed at the test daemon.
    const shell = [
      'env',
      ...SCRUBBED.flatMap((key) => ['-u', key]),
      `FORGE_URL=${url}`,
      `FORGE_HOME=${home}`,
      `PS1=${PROMPT}`,
      'sh',
    ]
      .map((word) => `'${word.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      'forge',
      '-x',
      `${COLUMNS}`,
      '-y',
      `${ROWS}`,
      '-c',
      cwd,
      shell,
    );
    await waitForScreen('the shell prompt', (text) => text.includes(BARE_PROMPT));
    tmux('send-keys', '-t', 'forge', '-l', `node ${FORGE_BIN} tui`);
    tmux('send-keys', '-t', 'forge', 'Enter');

    // The dashboard, full screen: header with the connection, the fleet, the key bar at the bottom.
    const dashboard = await waitForScreen(
      'the dashboard',
      (text) => text.includes('Fleet · 25') && text.includes('Connected'),
    );
    const lines = dashboard.split('\n');
    expect(lines[0]).toMatch(/Forge\s+project/);
    expect(lines[1]).toHaveLength(COLUMNS);
    expect(dashboard).toMatch(/q quit/);
    expect(dashboard).not.toContain(BARE_PROMPT);

    // u, the start of the name, tab completes it, enter uploads.
    tmux('send-keys', '-t', 'forge', 'u');
    await waitForScreen('the upload prompt', (text) => text.includes('Upload ZIP ›'));
    tmux('send-keys', '-t', 'forge', '-l', 'hello');
    tmux('send-keys', '-t', 'forge', 'Tab');
    await waitForScreen('the completed path', (text) => /Upload ZIP › hello-site\.zip/.test(text));
    tmux('send-keys', '-t', 'forge', 'Enter');

    const done = await waitForScreen(
      'the stage to reach Build Complete or Integration Available',
      (text) => /Build Complete|Integration Available/.test(text.split('\n')[0] ?? ''),
      30_000,
    );
    expect(done.split('\n')[0]).toMatch(/project hello-site/);
    expect(done).toMatch(/Build hello-site b\d+-\w+ succeeded/);
    expect(done).toMatch(/Preview http:\/\/127\.0\.0\.1:\d+/);
    expect(done).toContain('Uploaded hello-site.zip: project hello-site');

    // Resized, it lays itself out again; grown past the shell's saved screen, nothing of it may be
    // left behind when that screen comes back.
    tmux('resize-window', '-t', 'forge', '-x', '100', '-y', '30');
    await waitForScreen('the 100×30 layout', (text) => text.split('\n')[1]?.length === 100);
    tmux('resize-window', '-t', 'forge', '-x', `${COLUMNS + 20}`, '-y', `${ROWS + 5}`);
    await waitForScreen('the bigger layout', (text) => text.split('\n')[1]?.length === COLUMNS + 20);

    tmux('send-keys', '-t', 'forge', 'q');
    // The shell prints a fresh prompt once forge has exited.
    const back = await waitForScreen(
      'the shell again',
      (text) => !text.includes('Fleet · 25') && text.trimEnd().split('\n').at(-1) === BARE_PROMPT,
    );
    // The alternate screen is gone: the shell's own screen is back as it was, command line included.
    expect(back).toContain(`${PROMPT}node ${FORGE_BIN} tui`);
    expect(back).not.toMatch(/[│╭╰●]/);
  }, 90_000);
});
