import { connect, createServer, type AddressInfo } from 'node:net';
import { CancelReason } from '@forge/shared';
import {
  runCommand,
  type OutputLine,
  type RunResult,
  type SandboxOptions,
} from '../../pipeline/run/index.ts';

/**
 * A server app's preview: its start command runs (through the build runner: own process group,
 * scrubbed environment) with PORT and HOST set, and it is ready once something accepts TCP
 * connections on that port. It then runs until stopped; the runner's timeout is not used.
 */

export interface ServerAppOptions {
  /** The start command, e.g. ["npm", "start"] or ["node", "server.js"]. */
  argv: readonly string[];
  cwd: string;
  /** Project variables for the app (added to the scrubbed environment; PORT and HOST win). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Port to give the app; default: a free one. */
  port?: number;
  /** How long the app has to accept connections before it is stopped and the start fails. */
  readyTimeoutMs?: number;
  /** Every output line of the app, for the build log. */
  onLine?: (line: OutputLine) => void;
  /** Aborting stops the app (before or after it is ready). */
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL of the app's process group (runner default 5 s). */
  killGraceMs?: number;
  /** Run inside the runner's bubblewrap sandbox when available (it shares the network, so the port works). */
  sandbox?: boolean | SandboxOptions;
}

export interface ServerApp {
  /** Where the app answers, e.g. "http://127.0.0.1:41235". */
  url: string;
  port: number;
  /** Pid of the start command, also its process group id. */
  pid: number;
  /** Stops the app and everything it started; resolves once its process is gone. */
  stop(reason?: CancelReason): Promise<void>;
  /** Resolves when the app's process ends, for whatever reason; never rejects. */
  exited: Promise<RunResult>;
}

export const DEFAULT_READY_TIMEOUT_MS = 30_000;
/** Output lines kept to explain a start that failed. */
const TAIL_LINES = 20;
/** Between connection attempts while waiting for the app. */
const POLL_INTERVAL_MS = 100;
/** setTimeout's ceiling (~24.8 days): "no timeout" for the runner, which insists on one. */
const NO_TIMEOUT_MS = 2 ** 31 - 1;
const HOST = '127.0.0.1';

/** A port free right now on 127.0.0.1 (listen on 0, read it, close). */
export async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether something accepts a TCP connection on host:port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(1_000, () => done(false));
  });
}

/** Error of a server app that never became reachable; `output` holds its last lines. */
export class ServerAppStartError extends Error {
  override readonly name = 'ServerAppStartError';
  constructor(
    message: string,
    readonly output: string,
    readonly result: RunResult | null,
  ) {
    super(output ? `${message}\nLast output:\n${output}` : message);
  }
}

/**
 * Starts a server app and resolves once it accepts connections. Rejects with `ServerAppStartError`
 * when the app exits first (message names the exit and ends with its last output lines) or when it
 * is not reachable within `readyTimeoutMs` (the app is stopped first), and with the abort reason when
 * `signal` aborts first; in every rejection the app's process group is gone.
 */
export async function startServerApp(options: ServerAppOptions): Promise<ServerApp> {
  const { argv, cwd, readyTimeoutMs = DEFAULT_READY_TIMEOUT_MS, signal } = options;
  if (argv.length === 0 || !argv[0]) throw new TypeError('startServerApp: argv must name a program');
  signal?.throwIfAborted();
  const port = options.port ?? (await findFreePort());
  const controller = new AbortController();
  // The runner records why: a CancelReason given as the abort reason (or its `reason` field), else user.
  const onOuterAbort = () => {
    const given: unknown = signal?.reason;
    const parsed = CancelReason.safeParse(
      typeof given === 'object' && given !== null && 'reason' in given ? given.reason : given,
    );
    controller.abort(parsed.success ? parsed.data : 'user');
  };
  signal?.addEventListener('abort', onOuterAbort, { once: true });

  const tail: string[] = [];
  let pid: number | undefined;
  const exited = runCommand({
    argv,
    cwd,
    env: { ...options.env, PORT: String(port), HOST },
    timeoutMs: NO_TIMEOUT_MS,
    signal: controller.signal,
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
    ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
    onSpawn: (spawned) => {
      pid = spawned;
    },
    onLine: (line) => {
      tail.push(line.text);
      if (tail.length > TAIL_LINES) tail.shift();
      try {
        options.onLine?.(line);
      } catch {
        // A failing log sink must not take the app down with it.
      }
    },
  })
    // runCommand rejects only on a programming error (our onLine never throws); keep `exited` total.
    .catch((error: unknown): RunResult => ({
      exitCode: null,
      signal: null,
      outcome: 'failed',
      durationMs: 0,
      outputBytes: 0,
      droppedBytes: 0,
      truncatedLines: 0,
      sandboxed: false,
      envNames: [],
      error: error instanceof Error ? error.message : String(error),
    }))
    .finally(() => signal?.removeEventListener('abort', onOuterAbort));

  let hasExited = false;
  /** Ends the current wait between connection attempts early. */
  let wake: (() => void) | undefined;
  void exited.then(() => {
    hasExited = true;
    wake?.();
  });
  controller.signal.addEventListener('abort', () => wake?.(), { once: true });

  const stop = async (reason: CancelReason = 'user') => {
    controller.abort(reason);
    await exited;
  };

  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (hasExited || controller.signal.aborted) break;
    if (await accepts(HOST, port)) break;
    if (Date.now() >= deadline) {
      await stop('timeout');
      throw new ServerAppStartError(
        `The app did not accept connections on port ${port} within ${readyTimeoutMs / 1000} s; it was stopped.`,
        tail.join('\n'),
        await exited,
      );
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, POLL_INTERVAL_MS);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
  wake = undefined;

  if (controller.signal.aborted) {
    await stop();
    throw signal?.aborted ? signal.reason : new Error('The app was stopped before it was ready.');
  }
  if (hasExited || pid === undefined) {
    const result = await exited;
    const how =
      result.error ??
      (result.signal ? `it was ended by ${result.signal}` : `it exited with code ${result.exitCode ?? '?'}`);
    throw new ServerAppStartError(
      `The app stopped before it accepted connections on port ${port}: ${how}.`,
      tail.join('\n'),
      result,
    );
  }

  return { url: `http://${HOST}:${port}`, port, pid, stop, exited };
}
