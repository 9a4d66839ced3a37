import { afterEach, describe, expect, it } from 'vitest';
import type { Build, ErrorBody, UploadResult } from '@forge/shared';
import { cleanup, startTestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';

afterEach(cleanup);

const json = async <T>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T;

/** An app of its own folder: a build script (no dependencies) writing a page that names the app. */
const app = (name: string) => ({
  [`apps/${name}/package.json`]: JSON.stringify({
    name,
    private: true,
    scripts: { build: 'node build.js' },
  }),
  [`apps/${name}/build.js`]: `const fs = require('fs');
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><title>${name}</title><h1>app ${name}</h1>');`,
});

/** A repository of two apps in subfolders, with no workspace config at the root. */
const TWO_APPS = { 'README.md': '# two apps\n', ...app('web'), ...app('admin') };

describe('choosing the app of a repository of several', () => {
  it('builds the app Forge picks, the one asked for, and picks again when the choice is cleared', async () => {
    const daemon = await startTestApp();
    const live = await watch(daemon);
    const zip = makeZip('two-apps.zip', TWO_APPS);

    const first = await live.finished((await json<UploadResult>(upload(daemon, zip))).buildId!);
    expect(first.status).toBe('succeeded');
    expect(first.blueprint?.appDir).toBe('apps/web');
    expect(first.blueprint?.apps.map((a) => a.dir).sort()).toEqual(['apps/admin', 'apps/web']);
    expect(await (await fetch(first.previewUrl!)).text()).toContain('app web');

    // forge upload --app apps/admin
    const second = await live.finished(
      (await json<UploadResult>(upload(daemon, zip, '?app=apps/admin'))).buildId!,
    );
    expect(second.status).toBe('succeeded');
    expect(second.blueprint?.appDir).toBe('apps/admin');
    expect(second.blueprint?.outputDir).toBe('apps/admin/dist');
    expect(await (await fetch(second.previewUrl!)).text()).toContain('app admin');

    // The choice stays with the project: a plain rebuild builds admin again.
    const rebuilt = await json<Build>(
      fetch(`${daemon.url}/api/builds`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ projectName: 'two-apps' }),
      }),
    );
    expect((await live.finished(rebuilt.id)).blueprint?.appDir).toBe('apps/admin');

    // An empty app clears the choice: Forge picks again.
    const cleared = await json<Build>(
      fetch(`${daemon.url}/api/builds`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ projectName: 'two-apps', app: '' }),
      }),
    );
    expect((await live.finished(cleared.id)).blueprint?.appDir).toBe('apps/web');
  });

  it('refuses an app folder outside the project before anything is built', async () => {
    const daemon = await startTestApp();
    const res = await upload(daemon, makeZip('two-apps.zip', TWO_APPS), '?app=../elsewhere');
    expect(res.status).toBe(400);
    const body = await json<ErrorBody>(res);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.error).toContain('apps/web');
    const builds = await json<Build[]>(fetch(`${daemon.url}/api/builds`));
    expect(builds).toEqual([]);
  });

  it('fails the build with the apps that exist when the chosen one is not there', async () => {
    const daemon = await startTestApp();
    const live = await watch(daemon);
    const res = await upload(daemon, makeZip('two-apps.zip', TWO_APPS), '?app=apps/shop');
    const body = await json<ErrorBody & UploadResult>(res);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(body.error).toContain('apps/shop');
    expect(body.error).toContain('apps/web');
    const [build] = await json<Build[]>(fetch(`${daemon.url}/api/builds`));
    const ended = await live.finished(build!.id);
    expect(ended.status).toBe('failed');
  });
});
