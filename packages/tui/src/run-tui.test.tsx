import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UI_TEXT } from '@forge/shared';
import { NO_TTY_MESSAGE, TUI_EXIT } from './constants.ts';
import { abortableFetch, runTui } from './run-tui.tsx';
import { createFakeClient } from './testing/fake-client.ts';
import { FakeTtyInput, FakeTtyOutput } from './testing/fake-tty.ts';

const ENTER_ALT = '\u001B[?1049h';
const LEAVE_ALT = '\u001B[?1049l';

function setup(
  options: { stdinTTY?: boolean; stdoutTTY?: boolean; fake?: ReturnType<typeof createFakeClient> } = {},
) {
  const stdin = new FakeTtyInput({ isTTY: options.stdinTTY ?? true });
  const stdout = new FakeTtyOutput({ isTTY: options.stdoutTTY ?? true, columns: 70, rows: 14 });
  const stderr = new FakeTtyOutput({ isTTY: options.stdoutTTY ?? true });
  const events = new EventEmitter();
  const fake = options.fake ?? createFakeClient();
  const created: { baseUrl: string; token?: string }[] = [];
  const signals: AbortSignal[] = [];
  const run = (baseUrl = 'http://127.0.0.1:4317', token?: string) =>
    runTui(
      { baseUrl, token },
      {
        stdin: stdin.asStream(),
        stdout: stdout.asStream(),
        stderr: stderr.asStream(),
        events,
        patchConsole: false,
        createClient: (opts, signal) => {
          created.push(opts);
          signals.push(signal);
          return fake.client;
        },
      },
    );
  return { stdin, stdout, stderr, events, fake, created, signals, run };
}

describe('runTui without a terminal', () => {
  it.each([
    ['stdout is piped', { stdoutTTY: false }],
    ['stdin is piped', { stdinTTY: false }],
  ])('refuses with exit code 2 when %s', async (_, tty) => {
    const t = setup(tty);
    await expect(t.run()).resolves.toBe(TUI_EXIT.usage);
    expect(t.stderr.output).toBe(`${NO_TTY_MESSAGE}\n`);
    expect(t.stderr.output).toContain('`forge logs -f`');
    expect(t.stderr.output).toContain('`forge status --watch`');
    expect(t.stdout.output).toBe('');
    expect(t.created).toHaveLength(0);
  });
});

describe('runTui in a terminal', () => {
  it('draws on the alternate screen and gives the screen back when q is pressed', async () => {
    const t = setup();
    const exitCode = t.run('http://127.0.0.1:4999', 'secret');
    await vi.waitFor(() => expect(t.fake.subscribed).toBe(true));
    expect(t.created).toEqual([{ baseUrl: 'http://127.0.0.1:4999', token: 'secret' }]);
    expect(t.signals[0]?.aborted).toBe(false);
    expect(t.stdout.output.startsWith(ENTER_ALT)).toBe(true);
    expect(t.stdin.isRaw).toBe(true);

    t.stdin.press('q');
    await expect(exitCode).resolves.toBe(TUI_EXIT.ok);
    expect(t.stdout.output).toContain(UI_TEXT.disconnected);
    expect(t.stdout.output.endsWith(LEAVE_ALT)).toBe(true);
    // The alternate buffer is erased on the way out, so a resized terminal restoring the user's
    // screen cannot show pieces of it (tmux does).
    expect(t.stdout.output.endsWith(`\u001B[2J\u001B[H\u001B[?25h${LEAVE_ALT}`)).toBe(true);
    expect(t.stdin.isRaw).toBe(false);
    expect(t.fake.subscriptions[0]?.closed).toBe(true);
    // In-flight requests are cancelled so a hung daemon cannot keep the process alive.
    expect(t.signals[0]?.aborted).toBe(true);
    expect(t.events.eventNames()).toEqual([]);
  });

  it('quits on Ctrl+C too', async () => {
    const t = setup();
    const exitCode = t.run();
    await vi.waitFor(() => expect(t.fake.subscribed).toBe(true));
    t.stdin.press('\u0003');
    await expect(exitCode).resolves.toBe(TUI_EXIT.ok);
    expect(t.stdout.output.endsWith(LEAVE_ALT)).toBe(true);
  });

  it('restores the screen and answers 128+n when a signal ends it', async () => {
    const t = setup();
    const exitCode = t.run();
    await vi.waitFor(() => expect(t.fake.subscribed).toBe(true));
    t.events.emit('SIGTERM', 'SIGTERM');
    await expect(exitCode).resolves.toBe(143);
    expect(t.stdout.output.endsWith(LEAVE_ALT)).toBe(true);
    expect(t.fake.subscriptions[0]?.closed).toBe(true);
  });

  it('leaves the alternate screen before an uncaught exception is printed', async () => {
    const t = setup();
    const exitCode = t.run();
    await vi.waitFor(() => expect(t.fake.subscribed).toBe(true));
    t.events.emit('uncaughtExceptionMonitor', new Error('boom'), 'uncaughtException');
    // The monitor runs synchronously before Node prints the error: the screen is back already.
    expect(t.stdout.output.endsWith(LEAVE_ALT)).toBe(true);
    await exitCode;
    expect(t.stdout.output.split(LEAVE_ALT)).toHaveLength(2);
  });

  it('restores the screen, prints the error and answers 1 when the app crashes', async () => {
    const t = setup({ fake: createFakeClient({ subscribeError: new Error('socket exploded') }) });
    await expect(t.run()).resolves.toBe(TUI_EXIT.crashed);
    expect(t.stdout.output).toContain(LEAVE_ALT);
    expect(t.stderr.output).toContain('socket exploded');
    expect(t.stdin.isRaw).toBe(false);
  });
});

describe('abortableFetch', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  /** A daemon that accepts every request and never answers. */
  async function hungDaemon() {
    const requests: IncomingMessage[] = [];
    server = createServer((req) => {
      requests.push(req);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/bots`, requests };
  }

  it('gives up on a request the daemon never answers, and frees its connection', async () => {
    const daemon = await hungDaemon();
    const fetch = abortableFetch(new AbortController().signal, { requestMs: 100, uploadMs: 60_000 });
    await expect(fetch(daemon.url)).rejects.toMatchObject({ name: 'TimeoutError' });
    await vi.waitFor(() => expect(daemon.requests[0]?.socket.destroyed).toBe(true));
  });

  it('gives an upload (a multipart body) the longer time', async () => {
    const daemon = await hungDaemon();
    const fetch = abortableFetch(new AbortController().signal, { requestMs: 50, uploadMs: 400 });
    const form = new FormData();
    form.append('file', new File(['x'], 'a.zip'));
    const started = Date.now();
    await expect(fetch(daemon.url, { method: 'POST', body: form })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
  });

  it('stops every request when the dashboard exits', async () => {
    const daemon = await hungDaemon();
    const exit = new AbortController();
    const pending = abortableFetch(exit.signal)(daemon.url);
    await vi.waitFor(() => expect(daemon.requests).toHaveLength(1));
    exit.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
