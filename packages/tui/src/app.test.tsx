import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { render as inkRender } from 'ink';
import { ForgeHttpError, UI_TEXT, type BotInfo } from '@forge/shared';
import { at, makeBuild } from '@forge/testing';
import { App } from './app.tsx';
import { START_DAEMON_COMMAND } from './constants.ts';
import { createFakeClient, fakeProject as project } from './testing/fake-client.ts';
import { FakeTtyInput, FakeTtyOutput } from './testing/fake-tty.ts';
import { KEYS, renderApp, waitFor } from './testing/render-app.tsx';

// Each test drives a few dozen renders; under a loaded 2-core CI machine that takes seconds.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
});

describe('connection', () => {
  it('shows Disconnected before the socket opens, Connected once it does', async () => {
    const app = renderApp();
    expect(app.frame()).toContain(UI_TEXT.disconnected);
    expect(app.frame()).not.toContain(UI_TEXT.connected);
    await app.connect();
    await app.shows(UI_TEXT.connected);
    expect(app.frame()).not.toContain(UI_TEXT.disconnected);
  });

  it('shows the daemon URL, and its version once the socket greets', async () => {
    const app = renderApp({ fake: createFakeClient({ baseUrl: 'http://127.0.0.1:5999' }) });
    await app.connect();
    app.fake.emit({ type: 'hello', version: '9.8.7', clientId: 'c1' });
    await app.shows('http://127.0.0.1:5999 · v9.8.7');
  });

  it('says how to start a daemon once a connection attempt failed, until one answers', async () => {
    const app = renderApp({ fake: createFakeClient({ baseUrl: 'http://127.0.0.1:5999' }) });
    await waitFor(() => expect(app.fake.subscribed).toBe(true));
    // The first attempt is still under way: no alarm yet.
    expect(app.frame()).not.toContain(START_DAEMON_COMMAND);

    app.fake.setStatus('disconnected');
    await app.shows('No Forge daemon answers at http://127.0.0.1:5999.');
    expect(app.frame()).toMatch(new RegExp(`Start one with ${START_DAEMON_COMMAND} · retrying every 3 s`));
    expect(app.frame()).toContain(UI_TEXT.disconnected);
    // The reconnect attempt (every 3 s) keeps the hint up; the panes stay on screen.
    app.fake.setStatus('connecting');
    await app.shows(START_DAEMON_COMMAND);
    expect(app.frame()).toContain('Fleet');

    app.fake.setStatus('connected');
    await waitFor(() => expect(app.frame()).not.toContain(START_DAEMON_COMMAND));
    expect(app.frame()).toContain(UI_TEXT.connected);
  });

  it('never waits on a hung daemon: each call gives up after the timeout and keys still work', async () => {
    const hang = <T,>() => new Promise<T>(() => {});
    const fake = createFakeClient({
      routes: { bots: () => hang<BotInfo[]>(), projects: () => hang(), startBuild: () => hang() },
    });
    const app = renderApp({ fake, timeoutMs: 150 });
    await app.connect();
    await app.shows('Loading the fleet…');
    // The frame keeps drawing what arrives meanwhile.
    fake.emit({
      type: 'log',
      botName: 'HealthBot',
      level: 'info',
      message: 'tick',
      timestamp: new Date().toISOString(),
    });
    await app.shows('tick');
    // The fleet pane says why it is empty (wrapped in its narrow column).
    await app.shows(/│ The daemon did not answer within\s+│/);
    expect(app.frame()).toMatch(/│\s+150 ms\.\s+│/);
    // With no project known yet, b says what to do instead of hanging.
    app.press('b');
    await app.shows('No project yet: press u to upload a ZIP.');
    app.press('q');
    await waitFor(() => expect(fake.subscriptions[0]?.closed).toBe(true));
  });
});

describe('keys', () => {
  it('lists every key in the hint bar', () => {
    const app = renderApp();
    expect(app.frame().split('\n').at(-1)).toMatch(
      /tab focus\s+↑↓ scroll\s+u upload\s+b build\s+c cancel\s+o open web\s+p preview\s+f filter\s+q quit/,
    );
  });

  it('tab moves the focus fleet → build → logs; shift+tab goes back', async () => {
    const app = renderApp();
    await app.connect();
    const focused = () => app.frame().match(/▸ (\w+)/)?.[1];
    await waitFor(() => expect(focused()).toBe('Build'));
    app.press(KEYS.tab);
    await waitFor(() => expect(focused()).toBe('Logs'));
    app.press(KEYS.tab);
    await waitFor(() => expect(focused()).toBe('Fleet'));
    app.press(KEYS.tab);
    await waitFor(() => expect(focused()).toBe('Build'));
    app.press(KEYS.shiftTab);
    await waitFor(() => expect(focused()).toBe('Fleet'));
    expect(app.frame().match(/▸/g)).toHaveLength(1);
  });

  it('b starts a build of the current project (POST /api/builds) and follows it', async () => {
    const last = makeBuild({ id: 'b1-aaaaaa', stages: [['integration-available', 0]] });
    const started = makeBuild({ id: 'b2-bbbbbb', createdAt: at(1_000), stages: [['starting', 1_000]] });
    const fake = createFakeClient({
      routes: {
        projects: () => [project(last)],
        build: (input) => (input?.params.id === started.id ? started : last),
        startBuild: () => started,
      },
    });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows('b1-aaaaaa');
    app.press('b');
    await app.shows('Build b2-bbbbbb of site started.');
    expect(fake.callsOf('startBuild')).toEqual([{ body: { projectName: 'site' } }]);
    await app.shows(/Build site b2-bbbbbb queued/);
    // The socket moves it on from there.
    fake.emit({
      type: 'build-stage',
      buildId: 'b2-bbbbbb',
      projectName: 'site',
      status: 'running',
      stage: 'bot-assignment',
      timestamp: at(1_010),
    });
    await app.shows(/Build site b2-bbbbbb running/);
    expect(app.frame().split('\n')[0]).toContain('Assigning Bots');
  });

  it("b tells the daemon's refusal", async () => {
    const last = makeBuild({ stages: [['integration-available', 0]] });
    const body = JSON.stringify({
      error: 'There is no project named "site".',
      code: 'PROJECT_NOT_FOUND',
      hint: 'Upload it first: forge upload app.zip',
    });
    const fake = createFakeClient({
      routes: {
        projects: () => [project(last)],
        build: () => last,
        startBuild: () => {
          throw new ForgeHttpError(404, 'Not Found', body);
        },
      },
    });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows(last.id);
    app.press('b');
    await app.shows('Could not start a build of site: There is no project named "site" — Upload it first');
  });

  it('c cancels the running build (POST /api/builds/:id/cancel); with none running it says so', async () => {
    const running = makeBuild({ id: 'b3-cccccc', stages: [['build-start', 0]] });
    const cancelled = makeBuild({
      id: 'b3-cccccc',
      stages: [
        ['build-start', 0],
        ['idle', 20],
      ],
      cancelReason: 'user',
      // The daemon records a cancel as an error too; the pane says "Cancelled", not the code.
      error: { code: 'CANCELLED', message: 'build was cancelled' },
    });
    const fake = createFakeClient({
      routes: { projects: () => [project(running)], build: () => running, cancelBuild: () => cancelled },
    });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows(/b3-cccccc running/);
    app.press('c');
    await app.shows('Build b3-cccccc cancelled.');
    expect(fake.callsOf('cancelBuild')).toEqual([{ params: { id: 'b3-cccccc' } }]);
    await app.shows('Cancelled (user)');
    expect(app.frame().split('\n')[0]).toContain('Idle · cancelled');
    expect(app.frame()).toMatch(/⊘ Cancelled/);

    fake.answer('build', () => cancelled);
    app.press('c');
    await app.shows('No build is running.');
    expect(fake.callsOf('cancelBuild')).toHaveLength(1);
  });

  it('o opens the web workspace (with the token, so the browser is let in)', async () => {
    const app = renderApp({ fake: createFakeClient({ baseUrl: 'http://127.0.0.1:4999' }), token: 's3cret' });
    await app.connect();
    app.press('o');
    await app.shows('Opened the workspace in your browser: http://127.0.0.1:4999/');
    expect(app.openUrl).toHaveBeenCalledWith('http://127.0.0.1:4999/?token=s3cret');
    // The token is not shown on screen.
    expect(app.frame()).not.toContain('s3cret');
  });

  it('o says so when no browser can be started', async () => {
    const openUrl = vi.fn(async () => {
      throw new Error('spawn xdg-open ENOENT');
    });
    const app = renderApp({ openUrl });
    await app.connect();
    app.press('o');
    await app.shows(
      'Could not open a browser (spawn xdg-open ENOENT); open http://127.0.0.1:4317/ yourself.',
    );
  });

  it('p opens the preview of the followed build, or asks the daemon, or says there is none', async () => {
    const ready = makeBuild({
      stages: [['integration-available', 0]],
      previewUrl: 'http://127.0.0.1:40111/',
    });
    const fake = createFakeClient({ routes: { projects: () => [project(ready)], build: () => ready } });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows('Preview http://127.0.0.1:40111/');
    app.press('p');
    await app.shows('Opened the preview in your browser: http://127.0.0.1:40111/');
    expect(app.openUrl).toHaveBeenCalledWith('http://127.0.0.1:40111/');

    const none = makeBuild({ stages: [['build-failed', 0]] });
    const other = createFakeClient({
      routes: { projects: () => [project(none)], build: () => none, previewUrl: () => ({ url: null }) },
    });
    const second = renderApp({ fake: other });
    await second.connect();
    await second.shows('No preview for this build.');
    second.press('p');
    await second.shows('No preview yet: it is served once the build reaches Integration Available.');
    expect(other.callsOf('previewUrl')).toEqual([{ query: { project: 'site' } }]);
    expect(second.openUrl).not.toHaveBeenCalled();
  });

  it('q quits and closes the socket', async () => {
    const stdout = new FakeTtyOutput({ columns: 100, rows: 30 });
    const stdin = new FakeTtyInput();
    const fake = createFakeClient();
    const instance = inkRender(<App client={fake.client} />, {
      stdout: stdout.asStream(),
      stdin: stdin.asStream(),
      debug: true,
      patchConsole: false,
    });
    const exited = instance.waitUntilExit();
    await waitFor(() => expect(fake.subscribed).toBe(true));
    stdin.press('q');
    await exited;
    expect(fake.subscriptions[0]?.closed).toBe(true);
  });

  it('ignores keys it does not know', async () => {
    const app = renderApp();
    await app.connect();
    await app.shows('Fleet · 25');
    await waitFor(() => expect(app.fake.requests).toEqual(expect.arrayContaining(['bots', 'projects'])));
    const before = app.fake.calls.length;
    app.press('x');
    app.press('Z');
    app.press('b');
    await app.shows('No project yet');
    expect(app.fake.calls.length).toBe(before);
    expect(app.fake.subscriptions[0]?.closed).toBe(false);
  });
});

describe('layout', () => {
  it('fills the terminal and follows a resize', async () => {
    const stdout = new FakeTtyOutput({ columns: 120, rows: 30 });
    const fake = createFakeClient();
    const instance = inkRender(<App client={fake.client} />, {
      stdout: stdout.asStream(),
      stdin: new FakeTtyInput().asStream(),
      debug: true,
      patchConsole: false,
    });
    // Debug mode writes each whole frame at once; the panes' top border spans the frame's width.
    const lastFrameLines = () => stripVTControlCharacters(stdout.writes.at(-1) ?? '').split('\n');
    try {
      await waitFor(() => expect(fake.subscribed).toBe(true));
      fake.setStatus('connected');
      await waitFor(() => expect(lastFrameLines().join('\n')).toContain('Fleet · 25'));
      let lines = lastFrameLines();
      expect(lines).toHaveLength(30);
      expect(lines[1]).toMatch(/^╭─+╮╭─+╮$/);
      expect(lines[1]).toHaveLength(120);
      expect(lines.at(-1)).toContain('q quit');

      // Too short for a line per bot: the names are packed, each with its coloured dot.
      stdout.resize(110, 26);
      await waitFor(() => {
        lines = lastFrameLines();
        expect(lines[1]).toHaveLength(110);
      });
      expect(lines).toHaveLength(26);
      const frame = lines.join('\n');
      expect(frame).toMatch(/● ExtractBot ● DependencyBot/);
      expect(frame.match(/● \w+Bot/g)).toHaveLength(25);

      // Shorter still: categories and the bots worth a look.
      stdout.resize(90, 14);
      await waitFor(() => expect(lastFrameLines().join('\n')).toContain('Fleet · 25 · busy only'));
      lines = lastFrameLines();
      expect(lines).toHaveLength(14);
      expect(lines[1]).toHaveLength(90);
      expect(lines.join('\n')).toMatch(/● Services 7\/7 online/);
    } finally {
      instance.unmount();
    }
  });
});
