import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import AdmZip from 'adm-zip';
import { IntegratedApp, RollbackAppResponse } from '@forge/shared';
import type { ServerMessage, UploadResult } from '@forge/shared';
import { cleanup, startTestApp, tempDir, type TestApp } from './helpers.ts';
import { makeZip, STATIC_SITE, upload, watch, ZERO_DEP_BUILD } from './build-helpers.ts';

// IntegrationBot through a real daemon: real builds (no registry needed), the published app fetched
// from its own port, the saved ZIP read back, and a restart on the same FORGE_HOME.

afterEach(cleanup);

type BuildOutput = { projectName: string; buildPath: string; files: string[] };
type OkText = { ok: boolean; text: string; path?: string; url?: string; file?: string };
type ErrorAnswer = { code: string; error: string };

const SECOND_BUILD = {
  ...ZERO_DEP_BUILD,
  'build.js': ZERO_DEP_BUILD['build.js'].replace('Built by Forge', 'Second build'),
};

const json = async <T>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T;
const post = (app: TestApp, route: string, body: unknown = {}) =>
  fetch(`${app.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Uploads `files` as `<name>.zip`, waits for a successful build, returns its build_complete output. */
async function build(app: TestApp, live: Awaited<ReturnType<typeof watch>>, name: string, files: object) {
  const result = await json<UploadResult>(
    upload(app, makeZip(`${name}.zip`, files as Record<string, string>)),
  );
  const built = await live.finished(result.buildId!, 60_000);
  expect(built.status).toBe('succeeded');
  const done = (await live.until((m) => m.type === 'build_complete' && m.buildId === built.id)) as Extract<
    ServerMessage,
    { type: 'build_complete' }
  >;
  return { id: built.id, output: done.buildOutput as BuildOutput };
}

const page = async (url: string) => {
  const res = await fetch(`${url}/`);
  return { status: res.status, body: await res.text() };
};

describe('IntegrationBot', () => {
  it('publishes a build as an app on its own origin, unchanged by later builds until integrated again', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const first = await build(app, live, 'zero', ZERO_DEP_BUILD);
    expect(first.output.buildPath).toBe(path.join(app.home, 'outputs', 'zero'));

    const answer = await json<OkText>(post(app, '/api/integrate', first.output));
    expect(answer).toMatchObject({ ok: true, text: 'Integrated zero at /apps/zero', path: '/apps/zero' });
    const url = answer.url!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new URL(url).port).not.toBe(String(app.port));
    expect(await page(url)).toEqual({ status: 200, body: expect.stringContaining('Built by Forge') });
    expect((await fetch(`${url}/assets/app.js`)).status).toBe(200);
    // Its own origin: the daemon's API is not there (a client-side route gets the app's page).
    const api = await fetch(`${url}/api/health`);
    expect(api.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await api.text()).toContain('Built by Forge');
    expect(fs.readdirSync(path.join(app.home, 'apps', 'zero'))).toEqual([first.id]);

    const routes = app.forge.services.integration.list();
    expect(routes).toEqual([
      {
        path: '/apps/zero',
        name: 'zero',
        displayName: 'zero',
        description: expect.stringMatching(new RegExp(`^Build ${first.id} of zero, integrated \\d{4}-`)),
        kind: 'app',
        url,
      },
    ]);
    const bot = app.forge.services.fleet.list().find((b) => b.name === 'IntegrationBot')!;
    expect(bot.lastJob).toMatchObject({ label: 'integrate zero', ok: true });

    // A new build of the project leaves the published copy as it was.
    const second = await build(app, live, 'zero', SECOND_BUILD);
    expect(second.id).not.toBe(first.id);
    expect((await page(url)).body).toContain('Built by Forge');

    // Integrated again: the new build replaces it, the previous snapshot is kept for a rollback.
    const again = await json<OkText>(post(app, '/api/integrate', second.output));
    expect(again.text).toBe('Integrated zero at /apps/zero');
    expect((await page(again.url!)).body).toContain('Second build');
    expect(app.forge.services.integration.list()).toEqual([expect.objectContaining({ url: again.url })]);
    expect(fs.readdirSync(path.join(app.home, 'apps', 'zero')).sort()).toEqual([first.id, second.id].sort());
    if (again.url !== url) await expect(fetch(`${url}/`)).rejects.toThrow();
  });

  it('integrates the last successful build for the assistant, and says clearly when there is none', async () => {
    const app = await startTestApp();
    const none = await post(app, '/api/forge/integrate-last');
    expect(none.status).toBe(404);
    expect(await json<ErrorAnswer>(none)).toMatchObject({
      code: 'NO_ARTIFACT',
      error: 'There is no successful build to integrate yet: upload a project first.',
    });

    const live = await watch(app);
    const built = await build(app, live, 'zero', ZERO_DEP_BUILD);
    const answer = await json<{ text: string }>(post(app, '/api/forge/integrate-last'));
    expect(answer.text).toMatch(
      new RegExp(
        `^Integrated zero at /apps/zero: build ${built.id}, 2 files, served at (http://127\\.0\\.0\\.1:\\d+)$`,
      ),
    );
    const url = /served at (\S+)$/.exec(answer.text)![1]!;
    expect((await page(url)).body).toContain('Built by Forge');
  });

  it('publishes a plain static site from its project folder, leaving its dot files out', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const site = await build(app, live, 'site', STATIC_SITE);
    expect(site.output.buildPath).toBe(path.join(app.home, 'projects', 'site'));
    const answer = await json<OkText>(post(app, '/api/integrate', site.output));
    expect(answer.ok).toBe(true);
    expect((await page(answer.url!)).body).toContain('Hello static');
    expect((await fetch(`${answer.url!}/.env`)).status).toBe(404);
    // The upload's single top folder was stripped: the site is the project folder itself.
    const snapshot = path.join(app.home, 'apps', 'site', site.id);
    expect(fs.readdirSync(snapshot).sort()).toEqual(['app.js', 'index.html', 'style.css']);
    expect(fs.existsSync(path.join(app.home, 'projects', 'site', '.env'))).toBe(true);
  });

  it('saves the build output as <project>.zip in the saved folder', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const built = await build(app, live, 'zero', ZERO_DEP_BUILD);
    const answer = await json<OkText>(
      post(app, '/api/save-project', { projectName: 'zero', buildPath: built.output.buildPath }),
    );
    const file = path.join(app.home, 'saved', 'zero.zip');
    expect(answer).toEqual({ ok: true, text: `Saved ${file}`, file });
    const entries = new AdmZip(file)
      .getEntries()
      .filter((e) => !e.isDirectory)
      .map((e) => e.entryName)
      .sort();
    expect(entries).toEqual([...built.output.files].sort());
    expect(entries).toEqual(['assets/app.js', 'index.html']);
    expect(new AdmZip(file).readAsText('index.html')).toContain('Built by Forge');
    // Written whole, then renamed: nothing partial is left behind.
    expect(fs.readdirSync(path.join(app.home, 'saved'))).toEqual(['zero.zip']);
  });

  it('refuses a build path that is not the project’s output, and a project with no successful build', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const built = await build(app, live, 'zero', ZERO_DEP_BUILD);
    const outside = tempDir('forge-outside-');
    fs.writeFileSync(path.join(outside, 'index.html'), 'not yours');
    const hostile = [
      '/etc',
      '../',
      '..',
      outside,
      `${built.output.buildPath}/..`,
      `${built.output.buildPath}/../../projects/zero/../../..`,
      path.join(app.home, 'outputs'),
      'outputs/zero',
      // The project folder of a built site is its sources, not its output.
      path.join(app.home, 'projects', 'zero'),
    ];
    for (const buildPath of hostile) {
      for (const route of ['/api/integrate', '/api/save-project']) {
        const res = await post(app, route, { projectName: 'zero', buildPath, files: [] });
        expect(res.status, `${route} ${buildPath}`).toBe(403);
        expect((await json<ErrorAnswer>(res)).code).toBe('PATH_OUTSIDE_PROJECT');
      }
    }
    for (const projectName of ['../zero', 'nope', '/etc']) {
      const res = await post(app, '/api/integrate', { projectName, buildPath: '/etc', files: [] });
      expect(res.status).toBe(404);
      expect((await json<ErrorAnswer>(res)).code).toBe('PROJECT_NOT_FOUND');
    }
    expect(fs.existsSync(path.join(app.home, 'apps'))).toBe(false);
    expect(fs.existsSync(path.join(app.home, 'saved'))).toBe(false);

    // A project whose build failed has nothing to integrate.
    const failed = await json<UploadResult>(
      upload(
        app,
        makeZip('broken.zip', {
          'package.json': JSON.stringify({
            name: 'broken',
            private: true,
            scripts: { build: 'node -e "process.exit(3)"' },
          }),
        }),
      ),
    );
    expect((await live.finished(failed.buildId!, 60_000)).status).toBe('failed');
    for (const route of ['/api/integrate', '/api/save-project']) {
      const res = await post(app, route, {
        projectName: 'broken',
        buildPath: path.join(app.home, 'outputs', 'broken'),
        files: [],
      });
      expect(res.status).toBe(404);
      expect(await json<ErrorAnswer>(res)).toMatchObject({ code: 'NO_ARTIFACT' });
    }
    // The assistant's integrate names the current project (the broken one) in its refusal.
    const last = await post(app, '/api/forge/integrate-last');
    expect(last.status).toBe(404);
    expect((await json<ErrorAnswer>(last)).error).toContain('broken has no successful build');
  });

  it('rolls an app back to the build it replaced and forward again, and keeps that after a restart', async () => {
    const home = tempDir('forge-home-');
    const app = await startTestApp({ home });
    const live = await watch(app);
    const first = await build(app, live, 'zero', ZERO_DEP_BUILD);
    await json<OkText>(post(app, '/api/integrate', first.output));
    const none = await post(app, '/api/apps/zero/rollback');
    expect(none.status).toBe(409);
    expect(await json<ErrorAnswer>(none)).toMatchObject({
      code: 'NO_PREVIOUS_VERSION',
      error: expect.stringContaining(`zero serves build ${first.id} and has no previous build`),
    });
    const unknown = await post(app, '/api/apps/nope/rollback');
    expect(unknown.status).toBe(404);
    expect((await json<ErrorAnswer>(unknown)).code).toBe('APP_NOT_FOUND');

    const second = await build(app, live, 'zero', SECOND_BUILD);
    await json<OkText>(post(app, '/api/integrate', second.output));
    expect(IntegratedApp.array().parse(await json(fetch(`${app.url}/api/apps`)))).toEqual([
      expect.objectContaining({
        name: 'zero',
        path: '/apps/zero',
        buildId: second.id,
        previousBuildId: first.id,
      }),
    ]);

    const res = await post(app, '/api/apps/zero/rollback');
    expect(res.status).toBe(200);
    const back = RollbackAppResponse.parse(await res.json());
    expect(back.rolledBackFrom).toBe(second.id);
    expect(back.app).toMatchObject({ buildId: first.id, previousBuildId: second.id, files: 2 });
    expect((await page(back.app.url!)).body).toContain('Built by Forge');
    expect(app.forge.services.integration.list()).toEqual([expect.objectContaining({ url: back.app.url })]);
    const bot = app.forge.services.fleet.list().find((b) => b.name === 'IntegrationBot')!;
    expect(bot.lastJob).toMatchObject({
      label: 'roll back zero',
      ok: true,
      summary: `rolled back zero from build ${second.id} to ${first.id}`,
    });

    const forward = RollbackAppResponse.parse(await json(post(app, '/api/apps/zero/rollback')));
    expect(forward.app).toMatchObject({ buildId: second.id, previousBuildId: first.id });
    expect((await page(forward.app.url!)).body).toContain('Second build');
    const back2 = RollbackAppResponse.parse(await json(post(app, '/api/apps/zero/rollback')));
    await app.stop();

    const again = await startTestApp({ home });
    const apps = again.forge.services.integration;
    await expect.poll(() => apps.list()[0]?.url ?? null).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await page(apps.list()[0]!.url!)).body).toContain('Built by Forge');
    expect(back2.app.buildId).toBe(first.id);
  });

  it('serves the published apps again after a restart', async () => {
    const home = tempDir('forge-home-');
    const first = await startTestApp({ home });
    const live = await watch(first);
    const built = await build(first, live, 'zero', ZERO_DEP_BUILD);
    const answer = await json<OkText>(post(first, '/api/integrate', built.output));
    await first.stop();
    await expect(fetch(`${answer.url!}/`)).rejects.toThrow();

    const second = await startTestApp({ home });
    const apps = second.forge.services.integration;
    await expect.poll(() => apps.list()[0]?.url ?? null).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const [route] = apps.list();
    expect(route).toMatchObject({ path: '/apps/zero', name: 'zero', kind: 'app' });
    expect((await page(route!.url!)).body).toContain('Built by Forge');
  });
});
