import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';

export interface BuildOptions {
  project?: string;
  wait?: boolean;
  json?: boolean;
  /** false with --no-cache. */
  cache: boolean;
}

/** Build an uploaded project again (the dashboard's "Start Build"); with --wait, follow it like upload. */
export async function run(deps: Deps, opts: BuildOptions): Promise<number> {
  const { openFeed, followBuild } = await import('../builds/report.ts');
  const { defaultProjectName } = await import('../builds/resolve.ts');
  const connection = await deps.connect({ live: opts.wait === true });
  const projectName = opts.project ?? (await defaultProjectName(connection.client));
  const feed = opts.wait ? await openFeed(deps, connection) : undefined;
  try {
    const build = await connection.client.request('startBuild', {
      body: { projectName, ...(opts.cache ? {} : { noCache: true }) },
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
    return await followBuild(deps, {
      connection,
      feed,
      buildId: build.id,
      projectName: build.projectName,
      json: opts.json,
    });
  } finally {
    feed?.close();
  }
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('build')
    .description('build an uploaded project again (default: the most recently updated one)')
    .argument('[project]', 'project name (see forge builds, or the web UI)')
    .option('-w, --wait', 'follow the build to its end; exit 0 if it succeeded, 1 if not')
    .option('--json', 'print JSON on stdout (the build record; with --wait: the build result)')
    .option('--no-cache', 'build from scratch even if the same source was built before')
    .action((project: string | undefined, opts: Omit<BuildOptions, 'project'>, command: Command) =>
      invoke(command, run, { ...opts, project }),
    );
}
