/**
 * The real `forge tui` in a real terminal: a detached tmux session (160×45) runs the built CLI
 * against a real daemon (temp FORGE_HOME, port 0); the test uploads a static site with `u`, reads
 * the stage from `tmux capture-pane`, quits with `q` and checks the shell's screen came back.
 *
 * Needs tmux and the built CLI, daemon and dashboard (`pnpm build`); skipped, saying which, without.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, REPO_ROOT, startDaemon, writeProject, type TestDaemon } from '@forge/testing';

const FORGE_BIN = join(REPO_ROOT, 'packages/cli/bin/forge.js');
const BUILT = ['packages/cli/dist/forge.js', 'packages/daemon/dist/main.js', 'packages/tui/dist/index.js'];
const COLUMNS = 160;
const ROWS = 45;
/** The shell prompt inside the session: what "back to the shell" looks like. */
const PROMPT = 'forge-tmux-test$ ';
/** capture-pane drops trailing spaces: the prompt as it reads on an empty command line. */
const BARE_PROMPT = PROMPT.trimEnd();

const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
const missing = BUILT.filter((file) => !existsSync(join(REPO_ROOT, file)));
const skipReason = !hasTmux
  ? 'tmux is not installed (apt-get install -y tmux)'
  : missing.length > 0
    ? `the built ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing (run pnpm build)`
    : null;
if (skipReason) console.warn(`tmux test skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('forge tui in tmux', () => {
  let daemon: TestDaemon | undefined;
  let cwd: string;
  let socket: string;

  /**
   * tmux on a private socket (the developer's sessions are never touched). The server it starts
   * passes its environment to the session's shell: the developer's or CI's settings that would
   * change what forge or Ink do are scrubbed (Ink draws nothing live under CI), and forge is
   * pointed at the test daemon.
   */
  const tmux = (...args: string[]) => {
    const env = cleanEnv({ FORGE_URL: daemon!.url, FORGE_HOME: daemon!.home });
    delete env.TMUX;
    const result = spawnSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', env });
    if (result.status !== 0) throw new Error(`tmux ${args.join(' ')} failed: ${result.stderr}`);
    return result.stdout;
  };
  const screen = () => tmux('capture-pane', '-p', '-t', 'forge');
  /** Polls the screen (a terminal has no event to await) until one capture passes `test`. */
  const waitForScreen = async (what: string, test: (text: string) => boolean, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = screen();
      if (test(text)) return text;
      if (Date.now() > deadline)
        throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}. Screen:\n${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'forge-tui-tmux-cwd-'));
    socket = join(cwd, 'tmux.sock');
    writeProject(cwd, 'hello-site');
    daemon = await startDaemon();
  }, 60_000);

  afterAll(async () => {
    if (socket) spawnSync('tmux', ['-S', socket, 'kill-server'], { stdio: 'ignore' });
    await daemon?.stop();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  }, 30_000);

  it('uploads a ZIP with u, shows the build reaching Integration Available, and gives the shell back on q', async () => {
    // A plain sh with a known prompt, in the fixture's folder. Given as words, the command runs
    // without a shell of tmux's own in between (bash would drop PS1 on the way).
    const size = ['-x', `${COLUMNS}`, '-y', `${ROWS}`];
    tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      'forge',
      ...size,
      '-c',
      cwd,
      'env',
      `PS1=${PROMPT}`,
      'sh',
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

    // The upload's answer shows in the status line (for a few seconds, so it is waited for alone).
    await waitForScreen('the upload line', (text) =>
      text.includes('Uploaded hello-site.zip: project hello-site'),
    );
    // One screen that shows the finished build and its preview. Stage and status are drawn from
    // one record in one frame, so that same screen's header must agree.
    const done = await waitForScreen(
      'the build to succeed, with its preview',
      (text) =>
        /Build hello-site b\d+-\w+ succeeded/.test(text) && /Preview http:\/\/127\.0\.0\.1:\d+/.test(text),
      60_000,
    );
    expect(done.split('\n')[0]).toMatch(/project hello-site\s+Integration Available/);

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
