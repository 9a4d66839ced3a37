import type { Deps, Connection } from '../deps.ts';
import { isInterrupted, withInterrupt } from '../interrupt.ts';
import { EXIT } from '../output.ts';
import { paint } from '../terminal.ts';
import { buildExitCode, formatBuildSummary, formatStageLine, toBuildResult } from './build-result.ts';
import { openLiveFeed, type LiveFeed } from './live-feed.ts';
import { buildSource } from './source.ts';
import { waitForBuild } from './wait-for-build.ts';

/**
 * /ws, opened and greeted before a build is started so none of its events can be missed. If it
 * does not come up, the wait works by polling alone (and says so).
 */
export async function openFeed(deps: Deps, connection: Connection): Promise<LiveFeed> {
  const feed = openLiveFeed(buildSource(connection.client));
  if (!(await feed.ready())) {
    deps.out.info('Live updates are not available (no answer on /ws); checking the build every second.');
  }
  return feed;
}

export interface FollowBuildOptions {
  connection: Connection;
  feed: LiveFeed;
  buildId: string;
  projectName: string;
  json?: boolean;
}

/**
 * `--wait`: every stage on stderr as it is reached (with the time since the build started), then the
 * summary on stderr, and on stdout either the JSON result (--json) or the preview URL. Exit code by
 * the build's status; Ctrl+C stops waiting (130) and leaves the build running.
 */
export async function followBuild(deps: Deps, options: FollowBuildOptions): Promise<number> {
  const { out } = deps;
  const err = paint(deps.term.stderrColor);
  out.info(`Following build ${options.buildId} of ${options.projectName}:`);
  let build;
  try {
    build = await withInterrupt((signal) =>
      waitForBuild({
        source: buildSource(options.connection.client),
        feed: options.feed,
        buildId: options.buildId,
        signal,
        onStage: (event, record) => out.info(formatStageLine(event, record, err)),
        onNotice: (text) => out.info(text),
      }),
    );
  } catch (error) {
    if (!isInterrupted(error)) throw error;
    out.info(`Stopped waiting. Build ${options.buildId} goes on in the daemon.`);
    out.info(`  follow it: forge logs -f ${options.buildId}`);
    out.info(`  cancel it: forge cancel ${options.buildId}`);
    return EXIT.interrupted;
  }
  for (const line of formatBuildSummary(build, err)) out.info(line);
  if (options.json) out.json(toBuildResult(build));
  else if (build.previewUrl && build.status === 'succeeded') out.data(build.previewUrl);
  return buildExitCode(build.status);
}
