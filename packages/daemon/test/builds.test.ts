import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forgeZip, listZip } from '@forge/testing';
import type { Build, BotInfo, UploadResult } from '@forge/shared';
import { cleanup, startTestApp, tempDir, type TestApp } from './helpers.ts';
import { spawnDaemon } from './process-helpers.ts';
import { makeZip, processesWith, STATIC_SITE, upload, watch, ZERO_DEP_BUILD } from './build-helpers.ts';

afterEach(cleanup);

const json = async <T>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T;

describe('upload → build → preview → artifact', () => {
  it('serves a plain static site without building (no-build-needed)', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const res = await upload(app, makeZip('My Site!.zip', STATIC_SITE));
    expect(res.status).toBe(200);
    const result = await json<UploadResult>(res);
    expect(result).toMatchObject({
      projectName: 'My-Site',
      builderBots: ['BuildBot', 'UiBot', 'TestBot', 'OptimizationBot'],
      buildResult: { success: true, hasPackageJson: false },
    });
    const build = await live.finished(result.buildId!);
    expect(build.status).toBe('succeeded');
    expect(live.stagesOf(build.id)).toEqual([
      'bot-assignment',
      'extraction',
      'extraction-complete',
      'no-build-needed',
      'integration-available',
    ]);
    expect(build.uiCheck).toMatchObject({ ok: true, hasIndexHtml: true });
    const page = await fetch(build.previewUrl!);
    expect(await page.text()).toContain('Hello static');
    expect((await fetch(new URL('/.env', build.previewUrl!))).status).toBe(404);
    // The preview is its own origin: a different port from the daemon.
    expect(new URL(build.previewUrl!).port).not.toBe(String(app.port));
    const complete = await live.until((m) => m.type === 'build_complete');
    expect(complete).toMatchObject({ buildOutput: { projectName: 'My-Site' } });
  });

  it('installs nothing, builds, stores the output, previews it and zips the artifact', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const result = await json<UploadResult>(upload(app, makeZip('zero.zip', ZERO_DEP_BUILD)));
    const build = await live.finished(result.buildId!);
    expect(build.status).toBe('succeeded');
    expect(build.cacheHit).toBe(false);
    expect(live.stagesOf(build.id)).toEqual([
      'bot-assignment',
      'extraction',
      'extraction-complete',
      'build-start',
      'build-success',
      'integration-available',
    ]);
    expect(build.steps.map((s) => [s.name, s.botName, s.status])).toEqual(
      expect.arrayContaining([
        ['extract', 'ExtractBot', 'succeeded'],
        ['build', 'BuildBot', 'succeeded'],
        ['check', 'UiBot', 'succeeded'],
        ['optimize', 'OptimizationBot', 'succeeded'],
        ['preview', 'PreviewBot', 'succeeded'],
      ]),
    );
    expect(build.bundle!.files.map((f) => f.path).sort()).toEqual(['assets/app.js', 'index.html']);
    const output = live.messages
      .filter((m) => m.type === 'build-output')
      .map((m) => (m as { output: string }).output)
      .join('\n');
    expect(output).toContain('built 2 files');
    expect(
      live.messages.some((m) => m.type === 'build-error' && m.output.includes('a warning on stderr')),
    ).toBe(true);

    const page = await (await fetch(build.previewUrl!)).text();
    expect(page).toContain('Built by Forge');
    expect(await (await fetch(new URL('/assets/app.js', build.previewUrl!))).text()).toContain('dataset.ok');
    // SPA fallback for client-side routes.
    expect(await (await fetch(new URL('/some/route', build.previewUrl!))).text()).toContain('Built by Forge');

    const logs = await json<{ entries: Array<{ message: string; botName: string }> }>(
      fetch(`${app.url}/api/builds/${build.id}/logs`),
    );
    expect(logs.entries.some((e) => e.botName === 'BuildBot' && e.message === 'built 2 files')).toBe(true);

    const artifact = await fetch(`${app.url}/api/projects/zero/artifact`);
    expect(artifact.status).toBe(200);
    expect(artifact.headers.get('content-disposition')).toContain('zero.zip');
    const entries = listZip(Buffer.from(await artifact.arrayBuffer())).sort();
    // The output, and the SBOM every artifact carries (docs/artifacts.md).
    expect(entries).toEqual(['.forge/sbom.cdx.json', 'assets/app.js', 'index.html']);

    const source = await fetch(`${app.url}/api/projects/zero/download`);
    const sourceEntries = listZip(Buffer.from(await source.arrayBuffer()));
    expect(sourceEntries).toEqual(expect.arrayContaining(['package.json', 'build.js']));

    const projects = await json<Array<{ name: string; hasArtifact: boolean }>>(
      fetch(`${app.url}/api/projects`),
    );
    expect(projects).toEqual([expect.objectContaining({ name: 'zero', hasArtifact: true })]);
    expect((await json<{ url: string }>(fetch(`${app.url}/api/preview/url?project=zero`))).url).toBe(
      build.previewUrl,
    );
  });

  it('answers a re-upload of the same source from the cache', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const zip = makeZip('zero.zip', ZERO_DEP_BUILD);
    const first = await json<UploadResult>(upload(app, zip));
    await live.finished(first.buildId!);
    const second = await json<UploadResult>(upload(app, zip));
    const build = await live.finished(second.buildId!);
    expect(build).toMatchObject({ status: 'succeeded', cacheHit: true });
    expect(build.steps.find((s) => s.botName === 'CacheBot')?.status).toBe('cached');
    expect(await (await fetch(build.previewUrl!)).text()).toContain('Built by Forge');

    const forced = await json<UploadResult>(upload(app, zip, '?noCache=1'));
    expect((await live.finished(forced.buildId!)).cacheHit).toBe(false);
  });

  it('records a failing build as build-failed with the exit code', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const zip = makeZip('broken.zip', {
      'package.json': JSON.stringify({
        scripts: { build: 'node -e "console.error(\'syntax error here\'); process.exit(3)"' },
      }),
    });
    const result = await json<UploadResult>(upload(app, zip));
    const build = await live.finished(result.buildId!);
    expect(build.status).toBe('failed');
    expect(build.stage).toBe('build-failed');
    expect(build.error).toMatchObject({ code: 'BUILD_FAILED' });
    expect(build.error!.message).toContain('exited with code 3');
    expect((await fetch(`${app.url}/api/projects/broken/artifact`)).status).toBe(404);
    const bots = await json<BotInfo[]>(fetch(`${app.url}/api/bots`));
    expect(bots.find((b) => b.name === 'BuildBot')).toMatchObject({ status: 'error', failures: 1 });
  });

  it('times a hanging build out and leaves no process behind', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const zip = makeZip('hang.zip', {
      'package.json': JSON.stringify({ scripts: { build: 'node hang.js' } }),
      '.forgerc.json': JSON.stringify({ timeout: '3s' }),
      'hang.js': `const { spawn } = require('child_process');
const child = spawn('sleep', ['61.4242'], { stdio: 'ignore' });
child.on('spawn', () => console.log('grandchild started'));
setInterval(() => {}, 1000);`,
    });
    const result = await json<UploadResult>(upload(app, zip));
    // Printed once the grandchild runs (its 'spawn' event): the timeout may come any time after, so
    // what it leaves behind is checked at the end, not raced against here.
    await live.until((m) => m.type === 'build-output' && m.output.includes('grandchild started'));
    const build = await live.finished(result.buildId!);
    expect(build.status).toBe('timed-out');
    expect(build.stage).toBe('build-timeout');
    expect(processesWith('61.4242')).toEqual([]);
  });

  it('cancels a running build on request and when a newer upload supersedes it', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const slow = makeZip('slow.zip', {
      'package.json': JSON.stringify({
        scripts: { build: 'node -e "console.log(\'working\'); setInterval(()=>{},1000)"' },
      }),
    });
    const first = await json<UploadResult>(upload(app, slow));
    await live.until((m) => m.type === 'build-output' && m.buildId === first.buildId);
    const cancelled = await fetch(`${app.url}/api/builds/${first.buildId}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    expect(await live.finished(first.buildId!)).toMatchObject({ status: 'cancelled', cancelReason: 'user' });
    expect((await fetch(`${app.url}/api/builds/${first.buildId}/cancel`, { method: 'POST' })).status).toBe(
      409,
    );

    const second = await json<UploadResult>(upload(app, slow));
    await live.until((m) => m.type === 'build-output' && m.buildId === second.buildId);
    const third = await json<UploadResult>(upload(app, makeZip('slow.zip', ZERO_DEP_BUILD)));
    expect(await live.finished(second.buildId!)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'superseded',
    });
    expect((await live.finished(third.buildId!)).status).toBe('succeeded');
  });

  it('keeps at most the per-build cap of a log flood in the store and marks it truncated', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const zip = makeZip('flood.zip', {
      'package.json': JSON.stringify({ scripts: { build: 'node flood.js' } }),
      'flood.js': `const fs=require('fs');let s='';for(let i=0;i<30000;i++)s+='line '+i+'\\n';process.stdout.write(s);fs.mkdirSync('dist');fs.writeFileSync('dist/index.html','<p>ok</p>');`,
    });
    const result = await json<UploadResult>(upload(app, zip));
    const build = await live.finished(result.buildId!);
    expect(build.status).toBe('succeeded');
    expect(build.logTruncated).toBe(true);
    expect(build.logCount).toBe(20_000);
  });

  it('runs a server app with PORT and previews it while it listens', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const zip = makeZip('api.zip', {
      'package.json': JSON.stringify({ name: 'api', scripts: { start: 'node server.js' } }),
      'server.js': `require('http').createServer((q, s) => s.end('server says hi on ' + process.env.PORT)).listen(process.env.PORT, '127.0.0.1');`,
    });
    const result = await json<UploadResult>(upload(app, zip));
    const build = await live.finished(result.buildId!);
    expect(build.status).toBe('succeeded');
    expect(build.blueprint!.kind).toBe('server');
    const text = await (await fetch(build.previewUrl!)).text();
    expect(text).toBe(`server says hi on ${new URL(build.previewUrl!).port}`);
  });

  it('starts a build again from the stored project (Start Build)', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const first = await json<UploadResult>(upload(app, makeZip('zero.zip', ZERO_DEP_BUILD)));
    await live.finished(first.buildId!);
    const res = await fetch(`${app.url}/api/builds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ projectName: 'zero', noCache: true }),
    });
    expect(res.status).toBe(200);
    const again = await json<Build>(res);
    expect((await live.finished(again.id)).status).toBe('succeeded');
    const unknown = await fetch(`${app.url}/api/builds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ projectName: 'nope' }),
    });
    expect(await unknown.json()).toMatchObject({ code: 'PROJECT_NOT_FOUND' });
    const list = await json<Build[]>(fetch(`${app.url}/api/builds?project=zero`));
    expect(list.map((b) => b.id)).toEqual([again.id, first.buildId]);
  });
});

describe('uploads that wait for their turn', () => {
  it('answers queued at once, still refuses a hostile archive, and builds it when the slot frees', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const off = await fetch(`${app.url}/api/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ botOrchestration: false }),
    });
    expect(off.status).toBe(200);
    const slow = makeZip('slow.zip', {
      'package.json': JSON.stringify({
        scripts: { build: 'node -e "console.log(1); setInterval(()=>{},1000)"' },
      }),
    });
    const first = await json<UploadResult>(upload(app, slow));
    expect(first.status).toBe('running');
    await live.until((m) => m.type === 'build-output' && m.buildId === first.buildId);

    const queued = await json<UploadResult>(upload(app, makeZip('next.zip', { ...ZERO_DEP_BUILD })));
    expect(queued).toMatchObject({
      projectName: 'next',
      status: 'queued',
      buildResult: { success: true, hasPackageJson: true },
    });
    expect(await json<Build>(fetch(`${app.url}/api/builds/${queued.buildId}`))).toMatchObject({
      status: 'queued',
      stage: 'starting',
    });

    const hostile = path.join(tempDir('forge-zip-'), 'evil.zip');
    fs.writeFileSync(hostile, forgeZip([{ name: '../outside.txt', data: 'x' }]));
    const refused = await upload(app, hostile);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ code: 'ARCHIVE_PATH_TRAVERSAL' });

    await fetch(`${app.url}/api/builds/${first.buildId}/cancel`, { method: 'POST' });
    expect((await live.finished(first.buildId!)).status).toBe('cancelled');
    const built = await live.finished(queued.buildId!);
    expect(built).toMatchObject({ status: 'succeeded', stage: 'integration-available' });
    expect(fs.readdirSync(path.join(app.home, 'tmp')).filter((f) => f.startsWith('upload-'))).toEqual([]);
  });
});

describe('upload validation', () => {
  it('refuses a file that is not a .zip with the spec text', async () => {
    const app = await startTestApp();
    const form = new FormData();
    form.set('file', new Blob(['hello']), 'notes.txt');
    const res = await fetch(`${app.url}/api/upload`, { method: 'POST', body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'INVALID_FILE_TYPE',
      error: 'Invalid file type',
      hint: 'Please upload a ZIP file',
    });
  });

  it('refuses more than 50MB with 413 and the documented text', async () => {
    const app = await startTestApp();
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(50 * 1024 * 1024 + 1)]), 'big.zip');
    const res = await fetch(`${app.url}/api/upload`, { method: 'POST', body: form }).catch((e: unknown) => e);
    // The daemon answers before reading the body; depending on timing the client sees 413 or a reset.
    if (res instanceof Response) {
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({
        code: 'FILE_TOO_LARGE',
        error: 'File too large',
        hint: 'Maximum file size is 50MB',
      });
    }
    expect(fs.existsSync(path.join(app.home, 'projects', 'big'))).toBe(false);
  });

  it('refuses a hostile archive, keeps the previous project and writes nothing outside the data dir', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const good = await json<UploadResult>(upload(app, makeZip('app.zip', STATIC_SITE)));
    await live.finished(good.buildId!);
    const before = fs.readFileSync(path.join(app.home, 'projects', 'app', 'index.html'), 'utf8');

    const evilPath = path.join(tempDir('forge-zip-'), 'app.zip');
    fs.writeFileSync(
      evilPath,
      forgeZip([
        { name: 'index.html', data: 'pwned' },
        { name: '../../escaped.txt', data: 'escape' },
      ]),
    );
    const res = await upload(app, evilPath);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; error: string };
    expect(body.code).toBe('ARCHIVE_PATH_TRAVERSAL');
    expect(body.error).toContain('escaped.txt');
    expect(fs.readFileSync(path.join(app.home, 'projects', 'app', 'index.html'), 'utf8')).toBe(before);
    expect(fs.existsSync(path.join(app.home, '..', 'escaped.txt'))).toBe(false);
    const builds = await json<Build[]>(fetch(`${app.url}/api/builds?project=app`));
    expect(builds[0]).toMatchObject({ status: 'failed', error: { code: 'ARCHIVE_PATH_TRAVERSAL' } });
  });
});

describe('bots', () => {
  it('reports activity per category and refuses unknown bots', async () => {
    const app = await startTestApp();
    const status = await json<{ success: boolean; activities: unknown[] }>(
      fetch(`${app.url}/api/bots/status`),
    );
    expect(status.success).toBe(true);
    expect(status.activities).toHaveLength(4);
    const res = await fetch(`${app.url}/api/bots/build`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ botName: 'NoSuchBot' }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'BOT_NOT_FOUND' });
  });

  it("runs an assistant bot's own job from its card, says where the others work, and shows what each last did", async () => {
    const app = await startTestApp({ starterProject: false });
    const press = (botName: string) =>
      fetch(`${app.url}/api/bots/build`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ botName }),
      });
    const health = await press('HealthBot');
    expect(health.status).toBe(200);
    expect(await json<{ message: string }>(health)).toMatchObject({ botName: 'HealthBot' });
    const codegen = await press('CodeGenBot');
    expect(codegen.status).toBe(409);
    expect(await json<{ error: string }>(codegen)).toMatchObject({
      code: 'BOT_HAS_NO_JOB',
      error: 'CodeGenBot has no build job to run: it works from the Code Generator page (or forge generate).',
    });
    const bots = await json<Array<{ name: string; status: string; lastJob: { ok: boolean } | null }>>(
      fetch(`${app.url}/api/bots`),
    );
    expect(bots.find((b) => b.name === 'HealthBot')!.lastJob).toMatchObject({ ok: true });
    expect(bots.find((b) => b.name === 'AuthBot')!.status).toBe('active');
  });
});

describe('recovery', () => {
  it('marks a build that was running when the daemon was killed -9 as interrupted, with no process left', async () => {
    const home = tempDir('forge-home-');
    const cwd = tempDir('forge-cwd-');
    const first = spawnDaemon(['run', '--port', '0'], { home, cwd });
    const url = await first.url;
    const app = { url } as TestApp;
    const live = await watch(app);
    const slow = makeZip('slow.zip', {
      'package.json': JSON.stringify({
        scripts: { build: 'node -e "console.log(7.7331); setInterval(()=>{},1000)" 7.7331' },
      }),
    });
    const result = await json<UploadResult>(upload(app, slow));
    await live.until((m) => m.type === 'build-output' && m.buildId === result.buildId);
    expect(processesWith('7.7331').length).toBeGreaterThan(0);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = spawnDaemon(['run', '--port', '0'], { home, cwd });
    const url2 = await second.url;
    const build = await json<Build>(fetch(`${url2}/api/builds/${result.buildId}`));
    expect(build).toMatchObject({ status: 'interrupted', stage: 'build-failed' });
    expect(build.error).toMatchObject({ code: 'BUILD_INTERRUPTED' });
    await expect.poll(() => processesWith('7.7331'), { timeout: 5_000 }).toEqual([]);
  });
});
