import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import { JsonResult } from '../builds/json-result.ts';
import { newestBuildOfProject } from '../builds/resolve.ts';
import type { Deps } from '../deps.ts';
import { EXIT_CODES_HELP } from '../output.ts';
import { addWaitOptions, checkWaitOptions, startDeadline, type WaitOptions } from '../builds/wait-options.ts';

export interface UploadOptions extends WaitOptions {
  file: string;
  wait?: boolean;
  json?: boolean;
  /** false with --no-cache: build from scratch even if the same source was built before. */
  cache: boolean;
  rapid?: boolean;
  /** --app <dir>: the app of a repository of several to build (remembered for the project). */
  app?: string;
}

/**
 * Upload a project ZIP. The file is checked first (exit 2 or 6 without contacting the daemon). With
 * --wait, /ws is subscribed before the first byte is sent, then the build is followed to its end.
 * With --json, stdout gets exactly one document, also when the upload is refused or fails.
 */
export async function run(deps: Deps, opts: UploadOptions): Promise<number> {
  const json = new JsonResult(deps.out, opts.json === true, {
    remote: deps.globals.url !== undefined,
    file: opts.file,
  });
  try {
    return await upload(deps, opts, json);
  } catch (err) {
    json.printError(err);
    throw err;
  }
}

async function upload(deps: Deps, opts: UploadOptions, json: JsonResult): Promise<number> {
  const { checkZipFile, sendZip, openFeed, followAndReport } = await import('../lazy.ts');
  checkWaitOptions(opts, true);
  const file = await checkZipFile(opts.file, deps.cwd);

  const connection = await deps.connect({ live: opts.wait === true });
  const feed = opts.wait ? await openFeed(deps, connection) : undefined;
  try {
    const deadline = startDeadline(opts);
    const result = await sendZip(deps, connection, file, {
      cache: opts.cache,
      rapid: opts.rapid,
      ...(opts.app !== undefined ? { app: opts.app } : {}),
      deadline,
    });
    json.context.projectName = result.projectName;
    if (!feed) {
      if (opts.json) deps.out.json(result);
      else {
        deps.out.data(`project  ${result.projectName}`);
        if (result.buildId) deps.out.data(`build    ${result.buildId}`);
        if (result.buildId) deps.out.info(`Follow the build with: forge logs -f ${result.buildId}`);
      }
      return 0;
    }
    const buildId = result.buildId ?? (await newestBuildOfProject(connection.client, result.projectName)).id;
    return await followAndReport(deps, json, {
      connection,
      feed,
      buildId,
      projectName: result.projectName,
      deadline,
      logs: opts.logs,
      tests: opts.tests,
      json: opts.json,
    });
  } finally {
    feed?.close();
  }
}

export function register(program: Command, invoke: Invoke): void {
  const command = program
    .command('upload')
    .description('upload a project ZIP (at most 50MB): it is extracted, planned and built by the daemon')
    .argument('<zip>', 'the project as a .zip file')
    .option('-w, --wait', 'follow the build to its end; the exit code says how it ended (see below)')
    .option('--json', 'print JSON on stdout (with --wait: the build result, also for a refusal or an error)')
    .option('--no-cache', 'build from scratch even if the same source was built before')
    .option('--rapid', 'the "Upload and Rapid Build" of the web UI')
    .option(
      '--app <dir>',
      'in a repository of several apps, the folder of the one to build, e.g. apps/admin, or . for the root (kept for the project; "" lets Forge pick)',
    );
  addWaitOptions(command)
    .addHelpText(
      'after',
      `
Without --wait, stdout gets the project name and build id (--json: the daemon's answer). With --wait,
progress and the summary go to stderr (with --logs the build's log too) and stdout gets the preview
URL, or with --json exactly one JSON document, whatever happens:
  { projectName, buildId, status, stage, durations: { <step>: ms }, cacheHit, previewUrl, error? }
  { status: "refused", file, error: { code, message, hint? } }      (exit 6)
  { status: "error", error: { code, message, hint? } }              (exit 1, 3, …)
--timeout bounds the upload and the wait; when it expires forge exits 4 with error.code WAIT_TIMEOUT
and the build goes on in the daemon, unless --cancel-on-timeout cancels it.
${EXIT_CODES_HELP}`,
    )
    .action((zip: string, opts: Omit<UploadOptions, 'file'>, command: Command) =>
      invoke(command, run, { ...opts, file: zip }),
    );
}
