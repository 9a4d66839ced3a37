import { afterEach, describe, expect, it } from 'vitest';
import { FAILURE_PROJECTS } from '@forge/testing';
import type { Build, BuildLogsResponse, UploadResult } from '@forge/shared';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';

// docs/pipeline.md "Previews and failures", through a real daemon: an app that ignores PORT is
// previewed where it listens, and a failure's record leads with the line that explains it.

afterEach(cleanup);

const json = async <T>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T;

async function messages(app: TestApp, buildId: string): Promise<string[]> {
  const page = await json<BuildLogsResponse>(fetch(`${app.url}/api/builds/${buildId}/logs?limit=10000`));
  return page.entries.map((e) => e.message);
}

describe('previews and failures', () => {
  it('previews a server app that ignores PORT on the port it listens on, with the evidence in the record', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const result = await json<UploadResult>(
      upload(app, makeZip('ignores-port.zip', FAILURE_PROJECTS['ignores-port'])),
    );
    const build = await live.finished(result.buildId!);
    expect(build.status).toBe('succeeded');

    const preview = build.steps.find((s) => s.name === 'preview')!;
    const [, port, given] = /listening on (\d+), not on PORT (\d+): found by its listening socket/.exec(
      preview.detail ?? '',
    )!;
    expect(port).not.toBe(given);
    expect(build.previewUrl).toBe(`http://127.0.0.1:${port}`);
    expect(await (await fetch(build.previewUrl!)).text()).toBe(`ignored PORT ${given}`);
    // The preview URL the clients ask for is that address too.
    const asked = await json<{ url: string }>(fetch(`${app.url}/api/preview/url?project=ignores-port`));
    expect(asked.url).toBe(build.previewUrl);
    expect(await messages(app, build.id)).toContainEqual(
      expect.stringMatching(new RegExp(`^The app did not answer on PORT ${given}: listening on ${port}`)),
    );
  });

  it('records a build failure with its first error line, its place and its last lines', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const result = await json<UploadResult>(
      upload(app, makeZip('type-error.zip', FAILURE_PROJECTS['type-error'])),
    );
    const build = await live.finished(result.buildId!);
    expect(build.status).toBe('failed');
    expect(build.error).toMatchObject({
      code: 'BUILD_FAILED',
      message: expect.stringMatching(/exited with code 2$/),
      firstLine: "error TS2322: Type 'number' is not assignable to type 'string'.",
      location: { file: 'src/app.ts', line: 3, column: 7 },
    });
    // Each line its own, the project's own path written relative to it.
    expect(build.error!.tail).toEqual(
      expect.arrayContaining([
        'checking 2 files…',
        "src/app.ts(3,7): error TS2322: Type 'number' is not assignable to type 'string'.",
      ]),
    );
    expect(await messages(app, build.id)).toContain(
      "First error: error TS2322: Type 'number' is not assignable to type 'string'.",
    );
  });

  it('fails a server app that exits before it listens with one sentence, its last lines apart', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const zip = makeZip('no-db.zip', {
      'package.json': JSON.stringify({ name: 'no-db', scripts: { start: 'node server.js' } }),
      'server.js': `for (let i = 1; i <= 25; i++) console.log('loading module ' + i);
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set');
`,
    });
    const result = await json<UploadResult>(upload(app, zip));
    const build: Build = await live.finished(result.buildId!);
    expect(build.status).toBe('failed');
    const error = build.error!;
    expect(error.code).toBe('PREVIEW_FAILED');
    expect(error.message).toMatch(
      /^The app exited with code 1 before it listened on a port \(it was given PORT=\d+\)\.$/,
    );
    expect(error.firstLine).toBe('Error: DATABASE_URL is not set');
    expect(error.location).toEqual({ file: 'server.js', line: 2, column: 38 });
    expect(error.tail).toHaveLength(20);
    expect(error.tail!.every((line) => !line.includes('\n'))).toBe(true);
    expect(error.tail).toContain('Error: DATABASE_URL is not set');
  });
});
