import type { ResolvedGlobals } from './context.ts';
import type { ForgePaths } from './daemon/paths.ts';
import type { ListenOptions, StartResult } from './daemon/start.ts';
import type { DaemonProbe } from './daemon/state.ts';
import type { StopResult } from './daemon/stop.ts';
import type { CliClient } from './http/client.ts';
import type { Output } from './output.ts';
import type { Terminal } from './terminal.ts';

/**
 * Everything a command's `run` needs from the outside world. It loads no zod: a read command gets
 * its answers through the CLI's own client (http/client.ts); /ws loads the shared client and `ws`
 * when a command asks for a live connection.
 */
export interface Deps {
  out: Output;
  env: NodeJS.ProcessEnv;
  cwd: string;
  globals: ResolvedGlobals;
  paths: ForgePaths;
  /** Colours and live progress lines: only on a terminal, never with NO_COLOR or TERM=dumb. */
  term: Terminal;
  daemon: DaemonControl;
  /**
   * A client for a daemon that answers: --url's, or the local one (started if allowed). `live`:
   * its `subscribe` works (loads the `ws` package, which only commands that follow builds need).
   */
  connect(options?: ConnectOptions): Promise<Connection>;
  /** A client for a daemon at a known address (forge ci's private daemon), with its own token. */
  connectTo(baseUrl: string, token: string | undefined, options?: ConnectOptions): Promise<Connection>;
}

export interface ConnectOptions {
  live?: boolean;
}

export interface DaemonControl {
  probe(): Promise<DaemonProbe>;
  start(opts: ListenOptions): Promise<StartResult>;
  stop(): Promise<StopResult>;
  /** `run` in the foreground with our stdio; resolves with its exit code. */
  runForeground(opts: ListenOptions & { dev?: boolean }): Promise<number>;
  /** Any other entry command (print-config) with our stdio; resolves with its exit code. */
  runEntry(args: string[]): Promise<number>;
  /**
   * A long-running entry command (worker) as `runForeground` runs `run`: our stdio, SIGINT/SIGTERM
   * forwarded, our exit awaits its graceful stop. `env` replaces ours for the child.
   */
  runEntryForeground(args: string[], env?: NodeJS.ProcessEnv): Promise<number>;
}

export interface Connection {
  client: CliClient;
  baseUrl: string;
  token: string | undefined;
}
