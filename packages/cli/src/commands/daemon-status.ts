import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { formatDuration } from '@forge/shared/schema-free';
import { EXIT } from '../output.ts';

export interface DaemonStatusOptions {
  json?: boolean;
}

/** `--json` answer of `forge daemon status`. */
export type StatusView =
  | {
      status: 'running';
      url: string;
      pid: number;
      version: string;
      /** Milliseconds since the daemon started. */
      uptimeMs: number;
      startedAt: string;
      home: string;
    }
  | { status: 'stopped'; home: string; staleStateFile: { pid: number | null } | null }
  | { status: 'unresponsive'; url: string; pid: number; home: string };

/** Running → exit 0; stopped or not answering → exit 3 (like the daemon being unreachable). */
export async function run(deps: Deps, opts: DaemonStatusOptions): Promise<number> {
  const probe = await deps.daemon.probe();
  const home = deps.paths.home;
  let view: StatusView;
  if (probe.status === 'running') {
    const { state, health } = probe;
    view = {
      status: 'running',
      url: state.url,
      pid: state.pid,
      version: health?.version ?? state.version,
      uptimeMs: health?.uptimeMs ?? Math.max(0, Date.now() - Date.parse(state.startedAt)),
      startedAt: state.startedAt,
      home,
    };
  } else if (probe.status === 'unresponsive') {
    view = { status: 'unresponsive', url: probe.state.url, pid: probe.state.pid, home };
  } else {
    view = { status: 'stopped', home, staleStateFile: probe.stale ? { pid: probe.stale.pid } : null };
  }

  if (opts.json) deps.out.json(view);
  else if (view.status === 'running') {
    deps.out.data(`running at ${view.url}`);
    deps.out.data(`  pid      ${view.pid}`);
    deps.out.data(`  version  ${view.version}`);
    deps.out.data(`  uptime   ${formatDuration(view.uptimeMs)}`);
    deps.out.data(`  home     ${view.home}`);
  } else if (view.status === 'unresponsive') {
    deps.out.data(`not responding: pid ${view.pid} is alive but ${view.url}/api/health does not answer`);
    deps.out.info('hint: restart it with `forge daemon stop`, then `forge daemon start`.');
  } else {
    const stale = view.staleStateFile;
    deps.out.data(
      stale
        ? `stopped (removed a stale state file${stale.pid === null ? '' : ` from pid ${stale.pid}`})`
        : 'stopped',
    );
  }
  return view.status === 'running' ? EXIT.ok : EXIT.unreachable;
}

export function register(daemon: Command, invoke: Invoke): void {
  daemon
    .command('status')
    .description('show whether the daemon runs, its URL, pid, version and uptime (exit 3 when stopped)')
    .option('--json', 'print JSON')
    .action((opts: DaemonStatusOptions, command: Command) => invoke(command, run, opts));
}
