import type { TestsPolicy, UploadResult } from '@forge/shared';
import { formatBytes } from '@forge/shared/schema-free';
import type { Deadline } from '../builds/wait-options.ts';
import type { Connection, Deps } from '../deps-types.ts';
import { CliError, EXIT } from '../output.ts';
import { createProgressLine } from './progress.ts';
import { zipUpload, type ZipFile } from './zip-file.ts';

export interface SendZipOptions {
  /** false with --no-cache. */
  cache: boolean;
  rapid?: boolean;
  /** The app folder to build in a repository of several ("" lets the daemon pick again). */
  app?: string;
  /** --tests: required, optional or skip. */
  tests?: TestsPolicy | undefined;
  /** --timeout: its expiry aborts the upload (exit 4, WAIT_TIMEOUT). */
  deadline?: Deadline;
  /** Aborts the upload (forge ci's Ctrl+C); the request rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * POST /api/upload with a progress line on stderr (redrawn on a terminal, one line in a pipeline).
 * The daemon answers once the ZIP is extracted and planned. A 4xx answer other than an access
 * problem (401, 403) means the archive was refused: the error is marked `refused` (exit 6).
 */
export async function sendZip(
  deps: Pick<Deps, 'out' | 'term'>,
  connection: Connection,
  file: ZipFile,
  options: SendZipOptions,
): Promise<UploadResult> {
  const total = formatBytes(file.size);
  const line = createProgressLine(deps.out, deps.term.stderrLive);
  let sent = 0;
  const upload = zipUpload(file, (bytes) => {
    sent += bytes;
    const percent = file.size === 0 ? 100 : Math.floor((sent / file.size) * 100);
    line.update(`Uploading ${file.name}  ${formatBytes(sent)} / ${total}  ${percent}%`);
  });
  if (!deps.term.stderrLive) deps.out.info(`Uploading ${file.name} (${total})…`);
  const signals = [options.deadline?.signal, options.signal].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
  const started = Date.now();
  let result: UploadResult;
  try {
    result = await connection.client.request('upload', {
      file: upload,
      query: {
        ...(options.rapid ? { rapid: '1' } : {}),
        ...(options.cache ? {} : { noCache: '1' }),
        ...(options.app !== undefined ? { app: options.app } : {}),
        ...(options.tests !== undefined ? { tests: options.tests } : {}),
      },
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    line.clear();
    if (options.deadline?.signal.aborted) {
      throw new CliError(
        `Timed out: the upload did not finish within ${options.deadline.label} (--timeout).`,
        {
          exitCode: EXIT.timedOut,
          code: 'WAIT_TIMEOUT',
        },
      );
    }
    if (signal?.aborted) throw signal.reason;
    if (isRefusal(err)) throw Object.assign(err as Error, { refused: true });
    throw err;
  }
  line.done(
    `Uploaded ${file.name} (${total}) in ${((Date.now() - started) / 1000).toFixed(1)}s: project ${result.projectName}`,
  );
  if (result.error) deps.out.info(`The daemon says: ${result.error}`);
  if (result.status === 'queued') {
    deps.out.info(
      `The build${result.buildId ? ` ${result.buildId}` : ''} is queued: it starts when its turn comes (every build slot is busy, or bot orchestration is off).`,
    );
  }
  return result;
}

/** A 4xx answer to the upload that is about the archive, not about access or a newer upload. */
function isRefusal(err: unknown): boolean {
  const e = err as { name?: string; status?: number; code?: string };
  if (e.name !== 'ForgeHttpError' || e.status === undefined) return false;
  return (
    e.status >= 400 && e.status < 500 && e.status !== 401 && e.status !== 403 && e.code !== 'BUILD_SUPERSEDED'
  );
}
