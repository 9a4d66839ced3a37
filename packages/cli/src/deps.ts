import { createRequire } from 'node:module';
import type { WebSocketLike } from '@forge/shared';
import type * as Ws from 'ws';
import { resolveGlobals, type GlobalOptions } from './context.ts';
import { daemonEntry, forgePaths } from './daemon/paths.ts';
import type { StartResult } from './daemon/start.ts';
import { probeDaemon } from './daemon/state.ts';
import { createCliClient } from './http/client.ts';
import { CliError, EXIT, type Output } from './output.ts';
import { detectTerminal, type Terminal } from './terminal.ts';
import type { ConnectOptions, Connection, DaemonControl, Deps } from './deps-types.ts';

// The types live apart so that modules behind the lazy import() can name them without a cycle.
export type { ConnectOptions, Connection, DaemonControl, Deps } from './deps-types.ts';

export interface DepsInput {
  out: Output;
  options: GlobalOptions;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  term?: Terminal;
}

export function createDeps({
  out,
  options,
  env = process.env,
  cwd = process.cwd(),
  term = detectTerminal({
    stdout: process.stdout,
    stderr: process.stderr,
    env,
    color: options.color !== false,
  }),
}: DepsInput): Deps {
  const globals = resolveGlobals(options, env);
  const paths = forgePaths(env);
  const startContext = () => ({
    paths,
    entry: daemonEntry(),
    env,
    cwd,
    token: globals.token,
    onStale: (pid: number | null) => out.info(staleNotice(pid)),
  });

  const daemon: DaemonControl = {
    probe: () => probeDaemon(paths.stateFile, globals.token),
    // Loaded when used: they need node:child_process, which a read command does not.
    start: async (opts) => (await import('./lazy.ts')).startDaemon(startContext(), opts),
    stop: async () => (await import('./lazy.ts')).stopDaemon(paths, globals.token),
    runForeground: async (opts) => {
      const { runForeground, runArgs } = await import('./lazy.ts');
      return runForeground(daemonEntry(), runArgs(opts), env, cwd);
    },
    runEntryForeground: async (args, childEnv = env) =>
      (await import('./lazy.ts')).runForeground(daemonEntry(), args, childEnv, cwd),
    // Not through lazy.ts: `forge config print` is a read command.
    runEntry: async (args) =>
      (await import('./daemon/foreground.ts')).runEntryCommand(daemonEntry(), args, env, cwd),
  };

  async function client(
    baseUrl: string,
    { live = false }: ConnectOptions,
    token = globals.token,
  ): Promise<Connection> {
    if (!live) return { client: createCliClient({ baseUrl, token }), baseUrl, token };
    // /ws is the shared client's (its event schemas). Node 20 has no global WebSocket; `ws`
    // implements the same on* API. Its typings differ from WebSocketLike under strict variance,
    // hence the one cast. `ws` is CommonJS: require() loads it without the ES module loader's
    // scan of each of its files for exports (~9 ms).
    const { createForgeClient } = await import('@forge/shared');
    const ws = createRequire(import.meta.url)('ws') as typeof Ws;
    const WebSocket = ws.WebSocket as unknown as WebSocketCtor;
    const { subscribe } = createForgeClient({ baseUrl, token, WebSocket });
    return { client: createCliClient({ baseUrl, token, subscribe }), baseUrl, token };
  }

  async function connect(options: ConnectOptions = {}): Promise<Connection> {
    if (globals.url) {
      const connection = await client(globals.url, options);
      // Fail here with exit 3 (unreachable) rather than halfway through a command.
      await connection.client.request('health');
      return connection;
    }
    const probe = await daemon.probe();
    if (probe.status === 'running') return client(probe.state.url, options);
    if (probe.status === 'unresponsive') {
      throw new CliError(`The Forge daemon (pid ${probe.state.pid}) does not answer at ${probe.state.url}.`, {
        exitCode: EXIT.unreachable,
        hint: 'Restart it: `forge daemon stop`, then `forge daemon start`.',
      });
    }
    if (probe.stale) out.info(staleNotice(probe.stale.pid));
    if (!globals.autostart) {
      throw new CliError(
        `The Forge daemon is not running, and it is not started automatically ${globals.autostartOffReason}.`,
        {
          exitCode: EXIT.unreachable,
          hint: 'Run `forge daemon start` first, or pass --start-daemon (or set FORGE_AUTOSTART=1).',
        },
      );
    }
    out.progress('Starting the Forge daemon… ');
    let result: StartResult;
    try {
      result = await daemon.start({});
    } catch (err) {
      out.info('failed.');
      throw err;
    }
    out.info(`running at ${result.state.url}`);
    return client(result.state.url, options);
  }

  const connectTo = (baseUrl: string, token: string | undefined, options: ConnectOptions = {}) =>
    client(baseUrl, options, token);

  return { out, env, cwd, globals, paths, term, daemon, connect, connectTo };
}

type WebSocketCtor = new (url: string) => WebSocketLike;

const staleNotice = (pid: number | null) =>
  `Removed a stale state file${pid === null ? '' : ` from pid ${pid}`} (that daemon is gone).`;
