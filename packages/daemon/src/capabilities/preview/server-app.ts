import { connect, createServer, type AddressInfo } from 'node:net';
import { CancelReason, PORT_PLACEHOLDER } from '@forge/shared';
import { runCommand, type OutputLine, type RunResult, type SandboxOptions } from '../exec/index.ts';
import { OutputEvidence, type CommandEvidence } from '../tool-output/first-error.ts';
import { listeningSockets, type ListeningSocket } from './listening-ports.ts';
import { inspectorPort, printedAddress, type PrintedAddress } from './printed-address.ts';

/**
 * A server app's preview: its start command runs (through the build runner: own process group,
 * scrubbed environment) with PORT and HOST set (and `{PORT}` in its arguments replaced by the
 * port), and it is ready once something accepts TCP connections on that port. An app that ignores
 * PORT is found where it does listen: a listening socket of one of its own processes (read from
 * /proc), preferring a port it printed ("Local: http://localhost:5173/"). It then runs until
 * stopped; the runner's timeout is not used.
 */

export interface ServerAppOptions {
  /** The start command, e.g. ["npm", "start"] or ["vite", "preview", "--port", "{PORT}"]. */
  argv: readonly string[];
  cwd: string;
  /** The project's root, for project-relative paths in a failure's first error line (default: cwd). */
  projectDir?: string;
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
  /** The app's own writable home (runCommand's `home`). */
  home?: string;
}

/** How an app that did not answer on PORT was found, for the build's log and record. */
export interface PortFound {
  /** The port it was given. */
  givenPort: number;
  by: 'socket' | 'printed';
  /** What it printed that named the port (by: printed). */
  printed?: string;
  /** One line: "listening on 8080, not on PORT 41235: found by its listening socket". */
  detail: string;
}

export interface ServerApp {
  /** Where the app answers, e.g. "http://127.0.0.1:41235". */
  url: string;
  port: number;
  /** Pid of the start command, also its process group id. */
  pid: number;
  /** Set when the app answers elsewhere than on PORT at 127.0.0.1: where, and how that was found. */
  found?: PortFound;
  /** Stops the app and everything it started; resolves once its process is gone. */
  stop(reason?: CancelReason): Promise<void>;
  /** Resolves when the app's process ends, for whatever reason; never rejects. */
  exited: Promise<RunResult>;
}

export const DEFAULT_READY_TIMEOUT_MS = 30_000;
/** Between connection attempts while waiting for the app. */
const POLL_INTERVAL_MS = 100;
/** Between looks at the app's listening sockets (a walk of /proc). */
const DISCOVERY_INTERVAL_MS = 400;
/**
 * How long a socket on another port must have been listening, with nothing on PORT, before it is
 * taken for the app's when the app did not print it: an app that opens a side port first (a
 * websocket, a metrics endpoint) and PORT a moment later still gets PORT.
 */
const SETTLE_MS = 1_000;
/** Printed addresses remembered (the first ones: later output only repeats them). */
const MAX_PRINTED = 16;
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

/** The start command with `{PORT}` replaced by the port in every argument. */
export const withPort = (argv: readonly string[], port: number): string[] =>
  argv.map((arg) => arg.split(PORT_PLACEHOLDER).join(String(port)));

/** Error of a server app that never became reachable: a one-sentence message, and its output's evidence. */
export class ServerAppStartError extends Error {
  override readonly name = 'ServerAppStartError';
  constructor(
    message: string,
    /** Its last lines (each its own), and its first error line when it printed one. */
    readonly evidence: CommandEvidence,
    readonly result: RunResult | null,
  ) {
    super(message);
  }

  /** The app's last output lines. */
  get tail(): string[] {
    return this.evidence.tail;
  }
}

/** Hosts to reach a socket at, best first: a wildcard is reached on loopback. */
function hostsFor(socket: ListeningSocket): string[] {
  if (socket.family === 4) return [socket.address === '0.0.0.0' ? HOST : socket.address];
  if (socket.address === '::') return [HOST, '::1'];
  return [socket.address];
}

const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

interface Reached {
  host: string;
  port: number;
  scheme: 'http' | 'https';
  found?: PortFound;
}

/**
 * Looks for the app at its own listening sockets, in this order: a port it printed, PORT at another
 * address (an app bound to ::1 only), any other port once it has listened for SETTLE_MS. Returns
 * the first that accepts a connection; null if none yet, `unknown` where sockets cannot be read.
 */
async function discover(
  pgid: number,
  givenPort: number,
  printed: readonly PrintedAddress[],
  skip: ReadonlySet<number>,
  firstSeen: Map<string, number>,
): Promise<Reached | null | 'unknown'> {
  const sockets = await listeningSockets(pgid);
  if (sockets === null) return 'unknown';
  const now = Date.now();
  const owned = sockets.filter((s) => !skip.has(s.port));
  const key = (s: ListeningSocket) => `${s.address}:${s.port}`;
  for (const socket of owned) {
    if (!firstSeen.has(key(socket))) firstSeen.set(key(socket), now);
  }

  const tries: Array<{ socket: ListeningSocket; print?: PrintedAddress }> = [];
  for (const print of printed) {
    for (const socket of owned.filter((s) => s.port === print.port)) tries.push({ socket, print });
  }
  for (const socket of owned.filter((s) => s.port === givenPort)) tries.push({ socket });
  for (const socket of owned) {
    if (now - firstSeen.get(key(socket))! >= SETTLE_MS) tries.push({ socket });
  }

  for (const { socket, print } of tries) {
    for (const host of hostsFor(socket)) {
      if (!(await accepts(host, socket.port))) continue;
      // PORT at 127.0.0.1 after all (it came up between the two looks): nothing to explain.
      if (socket.port === givenPort && host === HOST) return { host, port: givenPort, scheme: 'http' };
      const where =
        socket.port === givenPort
          ? `listening on PORT ${givenPort} at ${urlHost(socket.address)}, not at ${HOST}`
          : `listening on ${socket.port}, not on PORT ${givenPort}`;
      const how = print
        ? print.text.includes('://')
          ? `found by the URL it printed (${print.text})`
          : `found by what it printed ("${print.text}")`
        : 'found by its listening socket';
      return {
        host,
        port: socket.port,
        scheme: print?.scheme ?? 'http',
        found: {
          givenPort,
          by: print ? 'printed' : 'socket',
          ...(print ? { printed: print.text } : {}),
          detail: `${where}: ${how}`,
        },
      };
    }
  }
  return null;
}

/**
 * Starts a server app and resolves once it accepts connections, on PORT or where it was found.
 * Rejects with `ServerAppStartError` when the app exits first or when it is not reachable within
 * `readyTimeoutMs` (the app is stopped first): a one-sentence message, the app's last lines and its
 * first error line in `evidence`. Rejects with the abort reason when `signal` aborts first; in every
 * rejection the app's process group is gone.
 */
export async function startServerApp(options: ServerAppOptions): Promise<ServerApp> {
  const { cwd, readyTimeoutMs = DEFAULT_READY_TIMEOUT_MS, signal } = options;
  if (options.argv.length === 0 || !options.argv[0]) {
    throw new TypeError('startServerApp: argv must name a program');
  }
  signal?.throwIfAborted();
  const port = options.port ?? (await findFreePort());
  const argv = withPort(options.argv, port);
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

  const output = new OutputEvidence({ projectDir: options.projectDir ?? cwd, cwd });
  const printed: PrintedAddress[] = [];
  const inspectors = new Set<number>();
  let pid: number | undefined;
  const exited = runCommand({
    argv,
    cwd,
    env: { ...options.env, PORT: String(port), HOST },
    timeoutMs: NO_TIMEOUT_MS,
    signal: controller.signal,
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
    ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
    ...(options.home ? { home: options.home } : {}),
    onSpawn: (spawned) => {
      pid = spawned;
    },
    onLine: (line) => {
      output.onLine(line);
      const inspector = inspectorPort(line.text);
      if (inspector !== null) inspectors.add(inspector);
      const address = printed.length < MAX_PRINTED ? printedAddress(line.text) : null;
      if (address && !printed.some((p) => p.port === address.port)) printed.push(address);
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
  const firstSeen = new Map<string, number>();
  let discovering = true;
  let nextLook = 0;
  let reached: Reached | null = null;
  for (;;) {
    if (hasExited || controller.signal.aborted) break;
    if (await accepts(HOST, port)) {
      reached = { host: HOST, port, scheme: 'http' };
      break;
    }
    if (discovering && pid !== undefined && Date.now() >= nextLook) {
      nextLook = Date.now() + DISCOVERY_INTERVAL_MS;
      const look = await discover(pid, port, printed, inspectors, firstSeen);
      if (look === 'unknown') discovering = false;
      else if (look) {
        reached = look;
        break;
      }
    }
    if (Date.now() >= deadline) {
      await stop('timeout');
      throw new ServerAppStartError(
        `The app did not listen on a port within ${readyTimeoutMs / 1000} s (it was given PORT=${port}); it was stopped.`,
        output.evidence(),
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
  if (!reached || pid === undefined) {
    const result = await exited;
    const how = result.signal
      ? `was ended by ${result.signal}`
      : `exited with code ${result.exitCode ?? '?'}`;
    throw new ServerAppStartError(
      // A command that could not start at all says so itself ('Could not start "x" in /app: ENOENT').
      result.error
        ? `${result.error}.`
        : `The app ${how} before it listened on a port (it was given PORT=${port}).`,
      output.evidence(),
      result,
    );
  }

  return {
    url: `${reached.scheme}://${urlHost(reached.host)}:${reached.port}`,
    port: reached.port,
    pid,
    ...(reached.found ? { found: reached.found } : {}),
    stop,
    exited,
  };
}
