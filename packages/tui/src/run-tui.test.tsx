import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { UI_TEXT } from '@forge/shared';
import { NO_TTY_MESSAGE, TUI_EXIT } from './constants.ts';
import { runTui } from './run-tui.tsx';
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
    expect(t.stderr.output).toContain('forge daemon logs -f');
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
