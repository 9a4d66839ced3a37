import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { formatBytes } from '@forge/shared';
import { JsonResult } from '../builds/json-result.ts';
import { followBuild, openFeed, type FollowOutcome } from '../builds/report.ts';
import { checkWaitOptions, startDeadline, type WaitOptions } from '../builds/wait-options.ts';
import { daemonEntry } from '../daemon/paths.ts';
import { isPidAlive } from '../daemon/process.ts';
import { readStateFile } from '../daemon/state.ts';
import type { Connection, Deps } from '../deps-types.ts';
import { Interrupted, isInterrupted } from '../interrupt.ts';
import { CliError, describeError, EXIT } from '../output.ts';
import { downloadToFile } from '../transfer/download.ts';
import { sendZip } from '../transfer/upload-zip.ts';
import { checkZipFile } from '../transfer/zip-file.ts';
import { buildJunitReport, refusalJunitReport } from './junit.ts';
import { startPrivateDaemon, type PrivateDaemon } from './private-daemon.ts';

/** `forge ci`'s options (commands/ci.ts registers them). */
export interface CiOptions extends WaitOptions {
  file: string;
  /** -o: where to write the build output ZIP when the build succeeded. */
  output?: string;
  /** --provenance: the signed statement, the SBOM and the public key beside the artifact (needs -o). */
  provenance?: boolean;
  /** --junit: where to write the JUnit XML report. */
  junit?: string;
  json?: boolean;
  /** false with --no-cache. */
  cache: boolean;
}

/**
 * `forge ci app.zip`: the whole CI job in one command. Uses the configured daemon, or a private one it
 * starts and always stops; uploads, follows the build, writes the artifact (-o) and the JUnit report
 * (--junit), prints the result, and exits like `forge upload --wait`.
 */
export async function runCi(deps: Deps, opts: CiOptions): Promise<number> {
  const json = new JsonResult(deps.out, opts.json === true, {
    remote: deps.globals.url !== undefined,
    file: opts.file,
  });
  let paths: { artifact?: string; junit?: string } = {};

  // Ctrl+C / SIGTERM for the whole run: the first stops what is under way (the private daemon is
  // stopped on the way out); another one while stopping kills the private daemon at once.
  const interrupt = new AbortController();
  let daemon: PrivateDaemon | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    if (!interrupt.signal.aborted) interrupt.abort(new Interrupted(sig));
    else void daemon?.stop({ force: true });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    checkWaitOptions(opts, false);
    paths = { artifact: target(deps, opts.output), junit: target(deps, opts.junit) };
    if (opts.provenance && !paths.artifact) {
      throw new CliError('--provenance writes beside the artifact: give it with -o <file>.', {
        exitCode: EXIT.usage,
        code: 'USAGE',
      });
    }
    const file = await checkZipFile(opts.file, deps.cwd);

    let connection: Connection;
    if (deps.globals.url !== undefined || (await localDaemonRuns(deps))) {
      connection = await deps.connect({ live: true });
    } else {
      deps.out.info('No Forge daemon is configured or running: starting a private one for this run.');
      daemon = await startPrivateDaemon({ entry: daemonEntry(), env: deps.env, signal: interrupt.signal });
      deps.out.info(`Private Forge daemon (pid ${daemon.pid}) at ${daemon.url}, home ${daemon.home}`);
      connection = await deps.connectTo(daemon.url, daemon.token, { live: true });
    }

    const feed = await openFeed(deps, connection);
    let outcome: FollowOutcome;
    try {
      const deadline = startDeadline(opts);
      const upload = await sendZip(deps, connection, file, {
        cache: opts.cache,
        tests: opts.tests,
        deadline,
        signal: interrupt.signal,
      });
      json.context.projectName = upload.projectName;
      const buildId = upload.buildId;
      if (!buildId) throw new CliError(`The daemon did not name the build of ${upload.projectName}.`);
      json.context.buildId = buildId;
      outcome = await followBuild(deps, {
        connection,
        feed,
        buildId,
        projectName: upload.projectName,
        deadline,
        logs: opts.logs,
        tests: opts.tests,
        privateDaemon: daemon !== undefined,
      });
    } finally {
      feed.close();
    }

    const result = outcome.result;
    // The private daemon's preview is gone once forge ci ends: no address that answers nothing.
    if (daemon && 'previewUrl' in result) result.previewUrl = null;
    if (paths.artifact) {
      result.artifact = await writeArtifact(deps, connection, outcome, paths.artifact, interrupt.signal, {
        provenance: opts.provenance === true,
      });
      if (opts.provenance && result.artifact && outcome.build) {
        result.provenance = await writeProvenance(
          deps,
          connection,
          outcome.build.id,
          result.artifact,
          interrupt.signal,
        );
      }
    }
    if (paths.junit && outcome.build) {
      writeReport(paths.junit, buildJunitReport(outcome.build));
      deps.out.info(`Wrote the JUnit report to ${paths.junit}`);
      result.junit = paths.junit;
    }
    json.print(result);
    return outcome.exitCode;
  } catch (caught) {
    const err = isInterrupted(caught)
      ? new CliError('Interrupted.', { exitCode: EXIT.interrupted, code: 'WAIT_INTERRUPTED' })
      : caught;
    const described = describeError(err, json.context);
    if (paths.junit && described.exitCode === EXIT.refused) {
      writeReport(paths.junit, refusalJunitReport(opts.file, described));
      json.context.junit = paths.junit;
    }
    json.printError(err);
    throw err;
  } finally {
    if (daemon) {
      deps.out.info('Stopping the private Forge daemon…');
      await daemon.stop();
      deps.out.info(`Stopped the private Forge daemon (pid ${daemon.pid}) and removed ${daemon.home}`);
    }
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** An output file from the command line, checked up front: its folder must exist (else exit 2). */
function target(deps: Deps, file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  const path = resolve(deps.cwd, file);
  const dir = dirname(path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new CliError(`Cannot write ${file}: the folder ${dir} does not exist.`, { exitCode: EXIT.usage });
  }
  return path;
}

/** A daemon for FORGE_HOME is running (its state file names a live process); nothing is removed. */
async function localDaemonRuns(deps: Deps): Promise<boolean> {
  const state = await readStateFile(deps.paths.stateFile);
  return state.kind === 'ok' && isPidAlive(state.state.pid);
}

/**
 * The build output ZIP (GET /api/projects/:name/artifact) at `path`, replacing an earlier one, when
 * the build succeeded; null (and a note) otherwise, or when the build left no output to download.
 */
async function writeArtifact(
  deps: Deps,
  connection: Connection,
  outcome: FollowOutcome,
  path: string,
  signal: AbortSignal,
  options: { provenance: boolean },
): Promise<string | null> {
  const build = outcome.build;
  if (build?.status !== 'succeeded') {
    deps.out.info(`No artifact written to ${path}: the build did not succeed.`);
    return null;
  }
  // With provenance, this build's recorded artifact: the very bytes its statement names.
  const url = options.provenance
    ? connection.client.url('buildArtifact', { params: { id: build.id } })
    : connection.client.url('downloadArtifact', { params: { name: build.projectName } });
  try {
    const bytes = await downloadToFile({ url, token: connection.token, signal }, path, true);
    deps.out.info(`Wrote the build output to ${path} (${formatBytes(bytes)})`);
    return path;
  } catch (err) {
    if ((err as { code?: string }).code !== 'NO_ARTIFACT') throw err;
    deps.out.info(`No artifact written to ${path}: the build has no output to download.`);
    return null;
  }
}

/**
 * The build's signed provenance (<artifact>.intoto.jsonl, what forge verify reads), its SBOM
 * (<artifact minus .zip>.cdx.json) and the public key that signed it (<artifact>.pub.pem), beside the
 * artifact. The key of a private daemon is made for this run only: pin the key of a daemon you keep.
 */
async function writeProvenance(
  deps: Deps,
  connection: Connection,
  buildId: string,
  artifact: string,
  signal: AbortSignal,
): Promise<{ statement: string; sbom: string; publicKey: string }> {
  const envelope = await connection.client.request('buildProvenance', { params: { id: buildId } });
  const key = await connection.client.request('provenanceKey', {});
  const statement = `${artifact}.intoto.jsonl`;
  const publicKey = `${artifact}.pub.pem`;
  const sbom = `${artifact.replace(/\.zip$/i, '')}.cdx.json`;
  writeReport(statement, `${JSON.stringify(envelope)}\n`);
  writeReport(publicKey, key.publicKey);
  const url = connection.client.url('buildSbom', { params: { id: buildId } });
  await downloadToFile({ url, token: connection.token, signal }, sbom, true);
  deps.out.info(
    `Wrote the signed provenance to ${statement}, the SBOM to ${sbom}, the public key to ${publicKey}`,
  );
  return { statement, sbom, publicKey };
}

/** Written beside the target and renamed into place, so a reader never sees half a report. */
function writeReport(path: string, xml: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, xml);
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
