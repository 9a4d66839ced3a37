import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { render as inkRender } from 'ink';
import { UI_TEXT, type HealthResponse } from '@forge/shared';
import { App } from './app.tsx';
import { HEALTH_TIMEOUT_MS, START_DAEMON_COMMAND } from './constants.ts';
import { createFakeClient } from './testing/fake-client.ts';
import { FakeTtyInput, FakeTtyOutput } from './testing/fake-tty.ts';

afterEach(() => {
  cleanup();
});

function renderApp(fake = createFakeClient()) {
  const view = render(<App client={fake.client} />);
  const frame = () => view.lastFrame() ?? '';
  /** The dashboard has subscribed, so its effects (and key handling) are live. */
  const ready = () => vi.waitFor(() => expect(fake.subscribed).toBe(true));
  return { ...view, fake, frame, ready };
}

describe('connection indicator', () => {
  it('shows Disconnected before the socket opens, Connected once it does', async () => {
    const { fake, frame, ready } = renderApp();
    expect(frame()).toContain(UI_TEXT.disconnected);
    expect(frame()).not.toContain(UI_TEXT.connected);

    await ready();
    fake.setStatus('connected');
    await vi.waitFor(() => expect(frame()).toContain(UI_TEXT.connected));
    expect(frame()).not.toContain(UI_TEXT.disconnected);
  });

  it('goes back to Disconnected when the daemon drops the socket', async () => {
    const { fake, frame, ready } = renderApp();
    await ready();
    fake.setStatus('connected');
    await vi.waitFor(() => expect(frame()).toContain(UI_TEXT.connected));
    fake.setStatus('disconnected');
    await vi.waitFor(() => expect(frame()).toContain(UI_TEXT.disconnected));
  });

  it('shows the daemon URL in the header', () => {
    const { frame } = renderApp(createFakeClient({ baseUrl: 'http://127.0.0.1:5999' }));
    expect(frame()).toContain('Forge');
    expect(frame()).toContain('http://127.0.0.1:5999');
  });
});

describe('body', () => {
  it('tells how to start the daemon while disconnected', async () => {
    const { fake, frame, ready } = renderApp();
    expect(frame()).toContain(START_DAEMON_COMMAND);
    await ready();
    fake.setStatus('disconnected');
    await vi.waitFor(() => expect(frame()).toContain(START_DAEMON_COMMAND));
    expect(frame()).toContain('Retrying every 3 s');
  });

  it('shows the daemon version and uptime from /api/health once connected', async () => {
    const fake = createFakeClient({
      health: () => Promise.resolve({ ok: true, version: '9.8.7-test', uptimeMs: 3_725_000 }),
    });
    const { frame, ready } = renderApp(fake);
    await ready();
    expect(fake.requests).not.toContain('health');

    fake.setStatus('connected');
    await vi.waitFor(() => expect(frame()).toContain('9.8.7-test'));
    expect(frame()).toMatch(/Uptime\s+1h 02m 0\ds/);
    expect(frame()).not.toContain(START_DAEMON_COMMAND);
  });

  it('asks for health again after a reconnect (the daemon may have been restarted)', async () => {
    const versions = ['1.0.0', '2.0.0'];
    const fake = createFakeClient({
      health: () => Promise.resolve({ ok: true, version: versions.shift() ?? 'none', uptimeMs: 0 }),
    });
    const { frame, ready } = renderApp(fake);
    await ready();
    fake.setStatus('connected');
    await vi.waitFor(() => expect(frame()).toContain('1.0.0'));
    fake.setStatus('disconnected');
    await vi.waitFor(() => expect(frame()).toContain(START_DAEMON_COMMAND));
    fake.setStatus('connected');
    await vi.waitFor(() => expect(frame()).toContain('2.0.0'));
  });

  it('stays usable while a slow daemon has not answered /api/health', async () => {
    const fake = createFakeClient({ health: () => new Promise<HealthResponse>(() => {}) });
    const { frame, ready, stdin } = renderApp(fake);
    await ready();
    fake.setStatus('connected');
    await vi.waitFor(() => expect(frame()).toContain('Checking daemon health'));
    expect(frame()).toContain(UI_TEXT.connected);

    stdin.write('q');
    await vi.waitFor(() => expect(fake.subscriptions[0]?.closed).toBe(true));
  });

  it('gives up waiting for /api/health after HEALTH_TIMEOUT_MS and says so', async () => {
    const fake = createFakeClient({ health: () => new Promise<HealthResponse>(() => {}) });
    const { frame, ready } = renderApp(fake);
    await ready();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fake.setStatus('connected');
      await vi.waitFor(() => expect(frame()).toContain('Checking daemon health'));
      await vi.advanceTimersByTimeAsync(HEALTH_TIMEOUT_MS - 1);
      expect(frame()).toContain('Checking daemon health');
      await vi.advanceTimersByTimeAsync(1);
      await vi.waitFor(() => expect(frame()).toContain('No health answer within 5 s'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('says so when the health check fails', async () => {
    const fake = createFakeClient({ health: () => Promise.reject(new Error('500: boom')) });
    const { frame, ready } = renderApp(fake);
    await ready();
    fake.setStatus('connected');
    await vi.waitFor(() => expect(frame()).toContain('Health check failed: 500: boom'));
  });
});

describe('keys', () => {
  it('lists q quit in the hint bar', () => {
    const { frame } = renderApp();
    expect(frame()).toMatch(/q quit/);
  });

  it('q exits the app and closes the socket', async () => {
    const stdout = new FakeTtyOutput({ columns: 60, rows: 12 });
    const stdin = new FakeTtyInput();
    const fake = createFakeClient();
    const instance = inkRender(<App client={fake.client} />, {
      stdout: stdout.asStream(),
      stdin: stdin.asStream(),
      debug: true,
      patchConsole: false,
    });
    const exited = instance.waitUntilExit();
    await vi.waitFor(() => expect(fake.subscribed).toBe(true));

    stdin.press('q');
    await exited;
    expect(fake.subscriptions[0]?.closed).toBe(true);
  });

  it('ignores other keys', async () => {
    const { fake, ready, stdin, frame } = renderApp();
    await ready();
    stdin.write('x');
    fake.setStatus('connected');
    await vi.waitFor(() => expect(frame()).toContain(UI_TEXT.connected));
    expect(fake.subscriptions[0]?.closed).toBe(false);
  });
});

describe('layout', () => {
  it('fills the terminal and follows a resize', async () => {
    const stdout = new FakeTtyOutput({ columns: 60, rows: 12 });
    const fake = createFakeClient();
    const instance = inkRender(<App client={fake.client} />, {
      stdout: stdout.asStream(),
      stdin: new FakeTtyInput().asStream(),
      debug: true,
      patchConsole: false,
    });
    // Debug mode writes each whole frame at once; the body's border shows the frame's width.
    const lastFrameLines = () => stripVTControlCharacters(stdout.writes.at(-1) ?? '').split('\n');
    try {
      await vi.waitFor(() => expect(fake.subscribed).toBe(true));
      let lines = lastFrameLines();
      expect(lines.filter((l) => l.length > 0)).toHaveLength(12);
      expect(lines.find((l) => l.startsWith('╭'))).toHaveLength(60);

      stdout.resize(40, 8);
      await vi.waitFor(() => {
        lines = lastFrameLines();
        expect(lines.find((l) => l.startsWith('╭'))).toHaveLength(40);
      });
      expect(lines.filter((l) => l.length > 0)).toHaveLength(8);
    } finally {
      instance.unmount();
    }
  });
});
