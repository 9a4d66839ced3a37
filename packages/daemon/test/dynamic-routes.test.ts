import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { routes, type DynamicRoute, type TextAnswer, type UploadResult } from '@forge/shared';
import { makeZip, type ProjectFiles } from '@forge/testing';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';
import { makeZip as writeProjectZip, upload, watch } from './build-helpers.ts';

// GET /api/dynamic-routes: the installed extensions and the integrated apps, each where the web
// shows it and where its page is served (its own origin), through a real daemon.

afterEach(cleanup);

const EXAMPLE = path.resolve(import.meta.dirname, '../../../examples/extensions/hello');
const exampleFiles = (): ProjectFiles =>
  Object.fromEntries(fs.readdirSync(EXAMPLE).map((f) => [f, fs.readFileSync(path.join(EXAMPLE, f))]));

const json = async <T>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T;
const dynamicRoutes = (app: TestApp) => json<DynamicRoute[]>(fetch(`${app.url}${routes.dynamicRoutes.path}`));

describe('dynamic routes', () => {
  it('lists every installed extension and integrated app with the origin that serves it, and forgets them when removed', async () => {
    const app = await startTestApp({ starterProject: false });
    expect(await dynamicRoutes(app)).toEqual([]);

    const form = new FormData();
    form.set('zipfile', new Blob([makeZip(exampleFiles())]), 'hello.zip');
    const installed = await fetch(`${app.url}/api/upload-extension`, { method: 'POST', body: form });
    expect(installed.status).toBe(200);

    const live = await watch(app);
    const result = await json<UploadResult>(
      upload(app, writeProjectZip('site.zip', { 'index.html': '<h1>integrated site</h1>' })),
    );
    expect((await live.finished(result.buildId!)).status).toBe('succeeded');
    const integrated = await json<TextAnswer>(
      fetch(`${app.url}/api/forge/integrate-last`, { method: 'POST' }),
    );
    expect(integrated.text).toMatch(/^Integrated site at \/apps\/site/);

    const listed = await dynamicRoutes(app);
    const manifest = JSON.parse(fs.readFileSync(path.join(EXAMPLE, 'forge-extension.json'), 'utf8')) as {
      name: string;
      route: string;
      displayName: string;
    };
    expect(listed.map((r) => [r.path, r.kind, r.name])).toEqual(
      [
        ['/apps/site', 'app', 'site'],
        [manifest.route, 'extension', manifest.name],
      ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
    const daemonPort = new URL(app.url).port;
    for (const route of listed) {
      expect(route.url).toBeTruthy();
      // Each is served from its own origin, never the daemon's.
      expect(new URL(route.url!).port).not.toBe(daemonPort);
      expect((await fetch(route.url!)).status).toBe(200);
    }
    expect(await (await fetch(listed.find((r) => r.kind === 'app')!.url!)).text()).toContain(
      'integrated site',
    );

    const removed = await fetch(`${app.url}/api/extensions/${manifest.name}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect((await dynamicRoutes(app)).map((r) => r.path)).toEqual(['/apps/site']);
  });
});
