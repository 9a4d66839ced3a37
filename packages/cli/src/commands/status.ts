import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { formatStatus, snapshot, type StatusSnapshot } from '../views/status.ts';

export interface StatusOptions {
  json?: boolean;
  watch?: boolean;
}

/** The daemon, the current project's latest build and the fleet; --watch prints again on every change. */
export async function run(deps: Deps, opts: StatusOptions): Promise<number> {
  const connection = await deps.connect({ live: opts.watch === true });
  const print = (s: StatusSnapshot) => {
    if (opts.json) deps.out.data(JSON.stringify(s));
    else for (const line of formatStatus(s)) deps.out.data(line);
  };
  const first = await snapshot(connection);
  if (!opts.watch) {
    if (opts.json) deps.out.json(first);
    else print(first);
    return 0;
  }
  print(first);
  let last = JSON.stringify({ ...first, uptimeMs: 0 });
  let pending: ReturnType<typeof setTimeout> | undefined;
  return new Promise<number>((resolve) => {
    const refresh = () => {
      pending ??= setTimeout(() => {
        pending = undefined;
        snapshot(connection).then(
          (s) => {
            // Print only when something a person would notice changed (not the uptime tick).
            const key = JSON.stringify({ ...s, uptimeMs: 0 });
            if (key === last) return;
            last = key;
            if (!opts.json) deps.out.data('');
            print(s);
          },
          () => {},
        );
      }, 250);
    };
    const sub = connection.client.subscribe({
      onMessage: (m) => {
        if (m.type === 'build-stage' || m.type === 'build-finished' || m.type === 'bot-status') refresh();
      },
      onStatus: (status) => {
        if (status === 'disconnected')
          deps.out.info('Lost the connection to the daemon; retrying every 3 s…');
        if (status === 'connected') refresh();
      },
    });
    const stop = () => {
      sub.close();
      if (pending) clearTimeout(pending);
      resolve(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('status')
    .description("the daemon, the current project's latest build and the fleet")
    .option('--watch', 'print again whenever a build or bot changes (Ctrl+C to stop)')
    .option('--json', 'print JSON (with --watch: one JSON document per line)')
    .action((opts: StatusOptions, command: Command) => invoke(command, run, opts));
}
