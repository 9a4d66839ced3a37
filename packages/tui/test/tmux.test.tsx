/**
 * The real `forge tui` in a real terminal: a detached tmux session (160×45) runs the built CLI
 * against a real daemon (temp FORGE_HOME, port 0); the test uploads a static site with `u`, reads
 * the stage from `tmux capture-pane`, quits with `q` and checks the shell's screen came back.
 *
 * Needs tmux and the built CLI, daemon and dashboard (`pnpm build`); skipped, saying which, without.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, writeProject, type TestDaemon } from '@forge/testing';
import { BARE_PROMPT, FORGE_BIN, PROMPT, skipReason, tmuxSession } from './tmux-session.ts';

const COLUMNS = 160;
const ROWS = 45;

if (skipReason) console.warn(`tmux test skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('forge tui in tmux', () => {
  let daemon: TestDaemon | undefined;
  let cwd: string;
  let socket: string;
  const session = () => tmuxSession(socket, () => daemon!);
  const tmux = (...args: string[]) => session().tmux(...args);
  const waitForScreen = (what: string, test: (text: string) => boolean, timeoutMs?: number) =>
    session().waitForScreen(what, test, timeoutMs);

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'forge-tui-tmux-cwd-'));
    socket = join(cwd, 'tmux.sock');
    writeProject(cwd, 'hello-site');
    daemon = await startDaemon();
  }, 60_000);

  afterAll(async () => {
    if (socket) session().kill();
    await daemon?.stop();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  }, 30_000);

  it('uploads a ZIP with u, shows the build reaching Integration Available, and gives the shell back on q', async () => {
    // A plain sh with a known prompt, in the fixture's folder.
    await session().start(cwd, COLUMNS, ROWS);
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
