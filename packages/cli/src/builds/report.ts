import type { Build, CliResult, CliResultError, ClientStore, TestsPolicy } from '@forge/shared';
import type { Connection, Deps } from '../deps-types.ts';
import { isInterrupted, withInterrupt } from '../interrupt.ts';
import { EXIT } from '../output.ts';
import { paint } from '../terminal.ts';
import {
  appliedPolicy,
  buildExitCode,
  formatBuildSummary,
  formatStageLine,
  toBuildResult,
  verdictOf,
} from './build-result.ts';
import { createBuildStore, trackBuild } from './build-tracker.ts';
import { watchBuild } from './build-watch.ts';
import { cancelBuild, isAlreadyFinished } from './cancel-build.ts';
import { formatLogLine } from './format-log.ts';
import { openLiveFeed, type LiveFeed } from './live-feed.ts';
import { buildSource } from './source.ts';
import type { Deadline } from './wait-options.ts';
import type { JsonResult } from './json-result.ts';

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
  /** --timeout (started before the upload): on expiry the wait stops, and with `cancel` the build too. */
  deadline?: Deadline;
  /** --logs: the build's log on stderr, between the stage lines. */
  logs?: boolean;
  /** The daemon is forge ci's own and is stopped afterwards: a build left running ends with it. */
  privateDaemon?: boolean;
  /** --tests: whether failed tests fail the verdict (else the forge config's "tests", else required). */
  tests?: TestsPolicy;
}

/** How a followed build ended for forge: the exit code, the --json document, the last record. */
export interface FollowOutcome {
  exitCode: number;
  result: CliResult;
  /** The last record read; undefined only when the wait was interrupted before the first one. */
  build: Build | undefined;
}

/**
 * `--wait`: every stage on stderr as it is reached (with the time since the build started), with
 * --logs the build's log lines too, then the summary on stderr. Exit code by the build's status
 * (0 succeeded, 1 failed, 4 timed out, 5 cancelled); --timeout expiring is 4 as well, Ctrl+C 130 —
 * both leave the build running (unless --cancel-on-timeout). The caller prints the result.
 */
export async function followBuild(deps: Deps, options: FollowBuildOptions): Promise<FollowOutcome> {
  const { out } = deps;
  const { buildId, deadline } = options;
  const err = paint(deps.term.stderrColor);
  out.info(`Following build ${buildId} of ${options.projectName}:`);
  // The build as /ws and the daemon's answers tell it; stages and log lines are printed from it.
  const store = createBuildStore();
  const tracker = trackBuild(store, buildId, {
    onStage: (event, build) => out.info(formatStageLine(event, build, err)),
    ...(options.logs
      ? {
          onLine: (line) => out.info(formatLogLine(line, err)),
          onCapped: () =>
            out.info(
              '(The daemon stores a limited number of lines per build; later lines are shown as streamed.)',
            ),
        }
      : {}),
  });
  let build: Build;
  try {
    build = await withInterrupt((interrupt) =>
      watchBuild({
        source: buildSource(options.connection.client),
        feed: options.feed,
        store,
        buildId,
        ...(options.logs ? { log: tracker } : {}),
        signal: deadline ? AbortSignal.any([interrupt, deadline.signal]) : interrupt,
        onNotice: (text) => out.info(text),
      }),
    );
  } catch (error) {
    const latest = lastKnown(store, buildId);
    if (isInterrupted(error)) return interrupted(deps, options, latest);
    if (deadline?.signal.aborted) return timedOut(deps, options, deadline, latest);
    throw error;
  } finally {
    tracker.close();
  }
  return finished(deps, build, undefined, options.tests);
}

/** The build as last known (its record, kept current by /ws); undefined before the record was read. */
function lastKnown(store: ClientStore, buildId: string): Build | undefined {
  const view = store.getState().builds[buildId];
  return view?.fromRecord ? view.build : undefined;
}

function finished(deps: Deps, build: Build, waitError?: CliResultError, flag?: TestsPolicy): FollowOutcome {
  for (const line of formatBuildSummary(build, paint(deps.term.stderrColor), flag)) deps.out.info(line);
  if (waitError) return { exitCode: EXIT.timedOut, result: toBuildResult(build, waitError), build };
  const policy = appliedPolicy(build, flag);
  const exitCode = buildExitCode(build.status, verdictOf(build, policy));
  if (exitCode === EXIT.testsFailed) {
    deps.out.info(
      `The build succeeded and its tests failed: exit ${EXIT.testsFailed} (tests are required; --tests optional reports them without failing).`,
    );
  }
  return { exitCode, result: toBuildResult(build, undefined, policy), build };
}

/** --timeout expired: say so, cancel the build if asked, and report it as it is now (exit 4). */
async function timedOut(
  deps: Deps,
  options: FollowBuildOptions,
  deadline: Deadline,
  latest: Build | undefined,
): Promise<FollowOutcome> {
  const { out } = deps;
  const { client } = options.connection;
  const { buildId } = options;
  out.info(`Timed out: build ${buildId} did not finish within ${deadline.label} (--timeout).`);
  let build = latest;
  let message: string;
  if (deadline.cancel) {
    try {
      build = await cancelBuild(client, buildId);
    } catch (err) {
      if (!isAlreadyFinished(err)) throw err;
      // It finished at the last moment: that is its result.
      return finished(
        deps,
        await client.request('build', { params: { id: buildId } }),
        undefined,
        options.tests,
      );
    }
    message = `Stopped waiting after ${deadline.label}; the build was cancelled (--cancel-on-timeout).`;
    out.info(`Cancelled build ${buildId}.`);
  } else {
    build = await client.request('build', { params: { id: buildId } }).catch(() => latest);
    if (options.privateDaemon) {
      message = `Stopped waiting after ${deadline.label}; the build ends with forge ci's private daemon.`;
    } else {
      message = `Stopped waiting after ${deadline.label}; the build goes on in the daemon.`;
      out.info(`It goes on in the daemon (pass --cancel-on-timeout to cancel it instead).`);
      out.info(`  follow it: forge logs -f ${buildId}`);
      out.info(`  cancel it: forge cancel ${buildId}`);
    }
  }
  const waitError: CliResultError = { code: 'WAIT_TIMEOUT', message };
  if (!build) return noRecord(options, waitError, EXIT.timedOut);
  return finished(deps, build, waitError);
}

/** Ctrl+C: stop waiting, leave the build to the daemon (exit 130). */
function interrupted(deps: Deps, options: FollowBuildOptions, latest: Build | undefined): FollowOutcome {
  const { out } = deps;
  const { buildId } = options;
  let message: string;
  if (options.privateDaemon) {
    message = "Stopped waiting (interrupted); the build ends with forge ci's private daemon.";
    out.info(`Stopped waiting for build ${buildId}.`);
  } else {
    message = 'Stopped waiting (interrupted); the build goes on in the daemon.';
    out.info(`Stopped waiting. Build ${buildId} goes on in the daemon.`);
    out.info(`  follow it: forge logs -f ${buildId}`);
    out.info(`  cancel it: forge cancel ${buildId}`);
  }
  const waitError: CliResultError = { code: 'WAIT_INTERRUPTED', message };
  if (!latest) return noRecord(options, waitError, EXIT.interrupted);
  return { exitCode: EXIT.interrupted, result: toBuildResult(latest, waitError), build: latest };
}

/** The wait ended before the build record was ever read. */
const noRecord = (options: FollowBuildOptions, error: CliResultError, exitCode: number): FollowOutcome => ({
  exitCode,
  result: { status: 'error', projectName: options.projectName, buildId: options.buildId, error },
  build: undefined,
});

/**
 * Without --json: the preview URL of a successful build on stdout (the summary is on stderr
 * already), also when its tests failed: the build itself is there to look at.
 */
export function printPreviewUrl(deps: Deps, outcome: FollowOutcome): void {
  const { build } = outcome;
  const verdictOnly = outcome.exitCode === EXIT.ok || outcome.exitCode === EXIT.testsFailed;
  if (verdictOnly && build?.status === 'succeeded' && build.previewUrl) {
    deps.out.data(build.previewUrl);
  }
}

/**
 * The end of `upload --wait` and `build --wait`: follow the build, print the one JSON result (or
 * the preview URL on stdout), and answer the exit code.
 */
export async function followAndReport(
  deps: Deps,
  json: JsonResult,
  options: FollowBuildOptions & { json: boolean | undefined },
): Promise<number> {
  json.context.buildId = options.buildId;
  const outcome = await followBuild(deps, options);
  json.print(outcome.result);
  if (!options.json) printPreviewUrl(deps, outcome);
  return outcome.exitCode;
}
