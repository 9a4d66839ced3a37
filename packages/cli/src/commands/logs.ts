import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { EXIT, EXIT_CODES_HELP } from '../output.ts';

export interface LogsOptions {
  buildId?: string;
  follow?: boolean;
  json?: boolean;
}

/**
 * A build's stored log as `HH:MM:SS LEVEL BotName message` (one JSON object per line with --json).
 * -f keeps printing new lines until the build finishes, then exits by its status (0 succeeded).
 */
export async function run(deps: Deps, opts: LogsOptions): Promise<number> {
  const { buildSource } = await import('../builds/source.ts');
  const { createBuildStore, trackBuild } = await import('../builds/build-tracker.ts');
  const { readStoredLog, watchBuild } = await import('../builds/build-watch.ts');
  const { formatLogLine, logLineJson } = await import('../builds/format-log.ts');
  const { buildExitCode, statusTone } = await import('../builds/build-result.ts');
  const { newestBuild } = await import('../builds/resolve.ts');
  const { openFeed } = await import('../builds/report.ts');
  const { isInterrupted, withInterrupt } = await import('../interrupt.ts');
  const { paint } = await import('../terminal.ts');

  const connection = await deps.connect({ live: opts.follow === true });
  const { client } = connection;
  const build = opts.buildId
    ? await client.request('build', { params: { id: opts.buildId } })
    : await newestBuild(client);
  const source = buildSource(client);
  const color = paint(deps.term.stdoutColor);
  // The lines are printed from the client model: stored ones in seq order, each once, then the
  // ones the daemon streamed past its per-build cap.
  const store = createBuildStore();
  store.dispatch({ type: 'build-record', build });
  const tracker = trackBuild(store, build.id, {
    onLine: (line) =>
      deps.out.data(opts.json ? JSON.stringify(logLineJson(build.id, line)) : formatLogLine(line, color)),
    onCapped: () =>
      deps.out.info(
        opts.follow
          ? '(The daemon stores a limited number of lines per build; the lines after these are shown as they are streamed.)'
          : '(This log was cut short: the daemon stores a limited number of lines per build.)',
      ),
  });
  deps.out.info(`Log of build ${build.id} (${build.projectName}, ${build.status}):`);
  try {
    if (!opts.follow) {
      await readStoredLog(source, store, build.id, tracker);
      return EXIT.ok;
    }
    // Greeted before the stored lines are read: lines written from here on reach the store, and
    // lines the daemon streams without storing them (past its per-build cap) are not missed.
    const feed = await openFeed(deps, connection);
    try {
      const final = await withInterrupt((signal) =>
        watchBuild({
          source,
          feed,
          store,
          buildId: build.id,
          log: tracker,
          signal,
          onNotice: (t) => deps.out.info(t),
        }),
      );
      deps.out.info(
        `Build ${final.id} ${paint(deps.term.stderrColor)(statusTone(final.status), final.status)}.`,
      );
      return buildExitCode(final.status);
    } catch (err) {
      if (isInterrupted(err)) return EXIT.interrupted;
      throw err;
    } finally {
      feed.close();
    }
  } finally {
    tracker.close();
  }
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('logs')
    .description("print a build's log (default: the newest build)")
    .argument('[buildId]', 'the build (see forge builds)')
    .option(
      '-f, --follow',
      'keep printing new lines until the build finishes, then exit by how it ended (see below)',
    )
    .option('--json', 'print each entry as one JSON object per line')
    .addHelpText('after', EXIT_CODES_HELP)
    .action((buildId: string | undefined, opts: Omit<LogsOptions, 'buildId'>, command: Command) =>
      invoke(command, run, { ...opts, buildId }),
    );
}
