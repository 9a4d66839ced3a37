import type { Build, LogLine } from '@forge/shared';
import type { Command } from 'commander';
import { alignRows, assistantRows, failureRows } from '../builds/failure.ts';
import { formatLogLine, logLineJson } from '../builds/format-log.ts';
import { newestBuild } from '../builds/resolve.ts';
import { buildSource } from '../builds/source.ts';
import { printStoredLog } from '../builds/stored-log.ts';
import type { Invoke } from '../command.ts';
import type { Connection, Deps } from '../deps.ts';
import { isInterrupted, withInterrupt } from '../interrupt.ts';
import { EXIT, EXIT_CODES_HELP } from '../output.ts';
import { paint } from '../terminal.ts';

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
  const connection = await deps.connect({ live: opts.follow === true });
  const { client } = connection;
  const build = opts.buildId
    ? await client.request('build', { params: { id: opts.buildId } })
    : await newestBuild(client);
  const color = paint(deps.term.stdoutColor);
  const onLine = (line: LogLine) =>
    deps.out.data(opts.json ? JSON.stringify(logLineJson(build.id, line)) : formatLogLine(line, color));
  /**
   * After the log, on stderr: why it failed, its first error line first (the log is long), then
   * ScanBot's diagnosis (cause, file:line, what to do) and RepairBot's repairs, made or proposed.
   * A build that succeeded after repairs says what they changed.
   */
  const explain = (b: Build, heading?: string) => {
    if (opts.json || b.status === 'cancelled') return;
    const rows = [
      ...(b.error && b.status !== 'succeeded' ? failureRows(b.error, { tail: false }) : []),
      ...(b.status === 'succeeded' ? assistantRows({ id: b.id, repairs: b.repairs }) : assistantRows(b)),
    ];
    if (rows.length === 0) return;
    if (heading) deps.out.info(heading);
    for (const line of alignRows(rows, paint(deps.term.stderrColor))) deps.out.info(line);
  };
  if (opts.follow) return follow(deps, connection, build, onLine, explain);

  // The log as stored now: a read command, so it leaves out the client store (and the schemas).
  deps.out.info(`Log of build ${build.id} (${build.projectName}, ${build.status}):`);
  await printStoredLog(buildSource(client), build, {
    onLine,
    onCapped: () =>
      deps.out.info('(This log was cut short: the daemon stores a limited number of lines per build.)'),
  });
  explain(build, `Build ${build.id} ${build.status}:`);
  return EXIT.ok;
}

/** -f: the lines from the client model, stored ones in seq order, then those the daemon only streamed. */
async function follow(
  deps: Deps,
  connection: Connection,
  build: Build,
  onLine: (line: LogLine) => void,
  explain: (b: Build) => void,
): Promise<number> {
  const { createBuildStore, trackBuild, watchBuild, buildExitCode, statusTone, verdictOf, openFeed } =
    await import('../lazy.ts');

  const store = createBuildStore();
  store.dispatch({ type: 'build-record', build });
  const tracker = trackBuild(store, build.id, {
    onLine,
    onCapped: () =>
      deps.out.info(
        '(The daemon stores a limited number of lines per build; the lines after these are shown as they are streamed.)',
      ),
  });
  deps.out.info(`Log of build ${build.id} (${build.projectName}, ${build.status}):`);
  try {
    // Greeted before the stored lines are read: lines written from here on reach the store, and
    // lines the daemon streams without storing them (past its per-build cap) are not missed.
    const feed = await openFeed(deps, connection);
    try {
      const final = await withInterrupt((signal) =>
        watchBuild({
          source: buildSource(connection.client),
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
      explain(final);
      return buildExitCode(final.status, verdictOf(final));
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
