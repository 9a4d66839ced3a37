import { afterEach, describe, expect, it } from 'vitest';
import type { Build, ErrorBody, UploadResult } from '@forge/shared';
import { cleanup, startTestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';

afterEach(cleanup);

const json = async <T>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T;

/**
 * An app in apps/web and a root whose own build script (no dependencies) writes a page too: Forge
 * picks apps/web (the root's script runs no tool it depends on), and "." asks for the root.
 */
const ROOT_AND_APP = {
  'package.json': JSON.stringify({ name: 'handbook', private: true, scripts: { build: 'node build.js' } }),
  'build.js': `const fs = require('fs');
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><title>root</title><h1>the root site</h1>');`,
  'apps/web/package.json': JSON.stringify({
    name: 'web',
    private: true,
    scripts: { build: 'node build.js' },
  }),
  'apps/web/build.js': `const fs = require('fs');
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><title>web</title><h1>app web</h1>');`,
};

describe('the project root as the app asked for', () => {
  it('accepts "." on upload and in a build request, and builds the root', async () => {
    const daemon = await startTestApp();
    const live = await watch(daemon);
    const zip = makeZip('handbook.zip', {
      ...ROOT_AND_APP,
      'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n",
    });

    const picked = await live.finished((await json<UploadResult>(upload(daemon, zip))).buildId!);
    expect(picked.blueprint?.appDir).toBe('apps/web');

    // forge upload --app .
    const res = await upload(daemon, zip, '?app=.');
    expect(res.status).toBe(200);
    const root = await live.finished((await json<UploadResult>(res)).buildId!);
    expect(root.status).toBe('succeeded');
    expect(root.blueprint).toMatchObject({ appDir: '.', outputDir: 'dist' });
    expect(await (await fetch(root.previewUrl!)).text()).toContain('the root site');

    // forge build --app ./ : the same root, remembered for the project.
    const rebuilt = await json<Build>(
      fetch(`${daemon.url}/api/builds`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ projectName: 'handbook', app: './' }),
      }),
    );
    const again = await live.finished(rebuilt.id);
    expect(again.blueprint?.appDir).toBe('.');
  });

  it('still refuses a folder that climbs out, naming "." as a choice', async () => {
    const daemon = await startTestApp();
    const res = await upload(daemon, makeZip('handbook.zip', ROOT_AND_APP), '?app=./..');
    expect(res.status).toBe(400);
    const body = await json<ErrorBody>(res);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.error).toContain('"." for the project root');
  });
});
