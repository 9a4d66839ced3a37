import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';

export interface UploadOptions {
  file: string;
  wait?: boolean;
  json?: boolean;
  /** false with --no-cache: build from scratch even if the same source was built before. */
  cache: boolean;
  rapid?: boolean;
}

/**
 * Upload a project ZIP. The file is checked first (exit 2 without contacting the daemon). With
 * --wait, /ws is subscribed before the first byte is sent, then the build is followed to its end.
 */
export async function run(deps: Deps, opts: UploadOptions): Promise<number> {
  const { checkZipFile, zipForm } = await import('../transfer/zip-file.ts');
  const { formatBytes } = await import('../builds/build-result.ts');
  const { createProgressLine } = await import('../transfer/progress.ts');
  const { openFeed, followBuild } = await import('../builds/report.ts');
  const { newestBuildOfProject } = await import('../builds/resolve.ts');
  const file = await checkZipFile(opts.file, deps.cwd);

  const connection = await deps.connect({ live: opts.wait === true });
  const feed = opts.wait ? await openFeed(deps, connection) : undefined;
  try {
    const total = formatBytes(file.size);
    const line = createProgressLine(deps.out, deps.term.stderrLive);
    let sent = 0;
    const form = await zipForm(file, (bytes) => {
      sent += bytes;
      const percent = file.size === 0 ? 100 : Math.floor((sent / file.size) * 100);
      line.update(`Uploading ${file.name}  ${formatBytes(sent)} / ${total}  ${percent}%`);
    });
    if (!deps.term.stderrLive) deps.out.info(`Uploading ${file.name} (${total})…`);
    const started = Date.now();
    const result = await connection.client
      .request('upload', {
        form,
        query: { ...(opts.rapid ? { rapid: '1' } : {}), ...(opts.cache ? {} : { noCache: '1' }) },
      })
      .catch((err: unknown) => {
        line.clear();
        throw err;
      });
    line.done(
      `Uploaded ${file.name} (${total}) in ${((Date.now() - started) / 1000).toFixed(1)}s: project ${result.projectName}`,
    );
    if (result.error) deps.out.info(`The daemon says: ${result.error}`);

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
    return await followBuild(deps, {
      connection,
      feed,
      buildId,
      projectName: result.projectName,
      json: opts.json,
    });
  } finally {
    feed?.close();
  }
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('upload')
    .description('upload a project ZIP (at most 50MB): it is extracted, planned and built by the daemon')
    .argument('<zip>', 'the project as a .zip file')
    .option('-w, --wait', 'follow the build to its end; exit 0 if it succeeded, 1 if not')
    .option('--json', 'print JSON on stdout (with --wait: the build result)')
    .option('--no-cache', 'build from scratch even if the same source was built before')
    .option('--rapid', 'the "Upload and Rapid Build" of the web UI')
    .addHelpText(
      'after',
      `
Without --wait, stdout gets the project name and build id. With --wait, progress and the summary go
to stderr and stdout gets the preview URL, or with --json one JSON document:
  { projectName, buildId, status, stage, durations: { <step>: ms }, cacheHit, previewUrl }`,
    )
    .action((zip: string, opts: Omit<UploadOptions, 'file'>, command: Command) =>
      invoke(command, run, { ...opts, file: zip }),
    );
}
