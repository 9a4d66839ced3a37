import type { Command } from 'commander';
import { JsonResult } from '../builds/json-result.ts';
import { defaultProjectName } from '../builds/resolve.ts';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { EXIT_CODES_HELP } from '../output.ts';
import { addWaitOptions, checkWaitOptions, startDeadline, type WaitOptions } from '../builds/wait-options.ts';

export interface BuildOptions extends WaitOptions {
  project?: string;
  wait?: boolean;
  json?: boolean;
  /** false with --no-cache. */
  cache: boolean;
  /** --app <dir>: the app of a repository of several to build from now on ("" lets Forge pick). */
  app?: string;
}

/** Build an uploaded project again (the dashboard's "Start Build"); with --wait, follow it like upload. */
export async function run(deps: Deps, opts: BuildOptions): Promise<number> {
  // Without --wait, --json prints the build record; with it, the result (also for an error).
  const json = new JsonResult(deps.out, opts.json === true && opts.wait === true, {
    remote: deps.globals.url !== undefined,
    ...(opts.project ? { projectName: opts.project } : {}),
  });
  try {
    return await build(deps, opts, json);
  } catch (err) {
    json.printError(err);
    throw err;
  }
}

async function build(deps: Deps, opts: BuildOptions, json: JsonResult): Promise<number> {
  const { openFeed, followAndReport } = await import('../lazy.ts');
  checkWaitOptions(opts, true);
  const connection = await deps.connect({ live: opts.wait === true });
  const projectName = opts.project ?? (await defaultProjectName(connection.client));
  json.context.projectName = projectName;
  const feed = opts.wait ? await openFeed(deps, connection) : undefined;
  try {
    const deadline = startDeadline(opts);
    const build = await connection.client.request('startBuild', {
      body: {
        projectName,
        ...(opts.cache ? {} : { noCache: true }),
        ...(opts.app !== undefined ? { app: opts.app } : {}),
      },
    });
    if (!feed) {
      if (opts.json) deps.out.json(build);
      else {
        deps.out.data(`project  ${build.projectName}`);
        deps.out.data(`build    ${build.id}`);
        deps.out.info(`Follow the build with: forge logs -f ${build.id}`);
      }
      return 0;
    }
    return await followAndReport(deps, json, {
      connection,
      feed,
      buildId: build.id,
      projectName: build.projectName,
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
    .command('build')
    .description('build an uploaded project again (default: the current one, see forge use)')
    .argument('[project]', 'project name (see forge builds, or the web UI)')
    .option('-w, --wait', 'follow the build to its end; the exit code says how it ended (see below)')
    .option(
      '--json',
      'print JSON on stdout (the build record; with --wait: the build result, see forge upload --help)',
    )
    .option('--no-cache', 'build from scratch even if the same source was built before')
    .option(
      '--app <dir>',
      'in a repository of several apps, the folder of the one to build from now on (. for the root; "" lets Forge pick)',
    );
  addWaitOptions(command)
    .addHelpText('after', EXIT_CODES_HELP)
    .action((project: string | undefined, opts: Omit<BuildOptions, 'project'>, command: Command) =>
      invoke(command, run, { ...opts, project }),
    );
}
