import { constants as osConstants } from 'node:os';
import { render, type Instance } from 'ink';
import WebSocket from 'ws';
import { createForgeClient, type WebSocketLike } from '@forge/shared';
import { App } from './app.tsx';
import type { TuiClient } from './client.ts';
import { NO_TTY_MESSAGE, REQUEST_TIMEOUT_MS, TUI_EXIT, UPLOAD_TIMEOUT_MS } from './constants.ts';
import { alternateScreen } from './terminal.ts';

export interface RunTuiOptions {
  /** Daemon origin, e.g. http://127.0.0.1:4317. */
  baseUrl: string;
  /** Access token for a daemon bound beyond loopback. */
  token?: string;
}

/** Where the dashboard draws and which client it uses; tests pass fake TTY streams and a fake client. */
export interface TuiIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** `signal` aborts when the dashboard exits, so no request outlives it. */
  createClient(options: RunTuiOptions, signal: AbortSignal): TuiClient;
  /** Where signals, crashes and exit are observed (the process). */
  events: ProcessEvents;
  /** Route stray console output above the frame instead of through it (off under test runners). */
  patchConsole: boolean;
}

/** The part of `process` the exit guards listen on. */
export type ProcessEvents = Pick<NodeJS.EventEmitter, 'on' | 'off'>;

/** Signals that end the dashboard from outside (Ctrl+C itself arrives as a key in raw mode). */
const EXIT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * fetch that stops when `signal` aborts (the dashboard exited) or the call outlives its time
 * (an upload, which answers after extraction and planning, gets longer). Without it a daemon that
 * accepts a request and never answers would hold a socket for good, and keep the process alive
 * after the user quit.
 */
export const abortableFetch =
  (
    signal: AbortSignal,
    timeouts = { requestMs: REQUEST_TIMEOUT_MS, uploadMs: UPLOAD_TIMEOUT_MS },
  ): typeof fetch =>
  (input, init) => {
    const limit = AbortSignal.timeout(
      init?.body instanceof FormData ? timeouts.uploadMs : timeouts.requestMs,
    );
    const signals = [signal, limit, ...(init?.signal ? [init.signal] : [])];
    return globalThis.fetch(input, { ...init, signal: AbortSignal.any(signals) });
  };

const processIo = (): TuiIo => ({
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  createClient: ({ baseUrl, token }, signal) =>
    createForgeClient({
      baseUrl,
      token,
      fetch: abortableFetch(signal),
      // Node 20 has no global WebSocket. `ws` implements the same on* API, but its typings (a
      // `null` address overload, handlers typed with its own Event classes) are not assignable to
      // WebSocketLike under strict variance, so the constructor is cast once here.
      WebSocket: WebSocket as unknown as new (url: string) => WebSocketLike,
    }),
  events: process,
  patchConsole: true,
});

/**
 * Runs the dashboard full screen until the user quits; resolves with the process exit code
 * (0 quit, 1 crashed, 2 no terminal, 128+n for signal n). The alternate screen is left on every
 * path: q, Ctrl+C, a signal, a render error, an uncaught exception.
 */
export async function runTui(options: RunTuiOptions, io: Partial<TuiIo> = {}): Promise<number> {
  const { stdin, stdout, stderr, events, createClient, patchConsole } = { ...processIo(), ...io };
  if (!stdin.isTTY || !stdout.isTTY) {
    stderr.write(`${NO_TTY_MESSAGE}\n`);
    return TUI_EXIT.usage;
  }

  const requests = new AbortController();
  const client = createClient(options, requests.signal);
  const screen = alternateScreen(stdout);
  let instance: Instance | undefined;
  let signalExitCode: number | undefined;

  // Our own listeners also stop Ink's signal-exit from re-raising the signal, which would kill
  // the process before the screen is restored; the caller exits with the code we return.
  const onSignal = (signal: NodeJS.Signals) => {
    signalExitCode = 128 + (osConstants.signals[signal] ?? 0);
    instance?.unmount();
  };
  // Runs before Node prints the error and exits, so the stack lands on the user's normal screen.
  const onCrash = () => {
    instance?.unmount();
    screen.leave();
  };
  const onExit = () => screen.leave();
  for (const signal of EXIT_SIGNALS) events.on(signal, onSignal);
  events.on('uncaughtExceptionMonitor', onCrash);
  events.on('exit', onExit);

  try {
    screen.enter();
    instance = render(<App client={client} token={options.token} />, {
      stdin,
      stdout,
      stderr,
      exitOnCtrlC: true,
      patchConsole,
    });
    await instance.waitUntilExit();
    return signalExitCode ?? TUI_EXIT.ok;
  } catch (err) {
    screen.leave();
    stderr.write(
      `forge tui stopped on an error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    return TUI_EXIT.crashed;
  } finally {
    requests.abort();
    screen.leave();
    for (const signal of EXIT_SIGNALS) events.off(signal, onSignal);
    events.off('uncaughtExceptionMonitor', onCrash);
    events.off('exit', onExit);
  }
}
