import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { ERROR_CATALOGUE, ForgeHttpError, MAX_UPLOAD_BYTES, UI_TEXT, type UploadResult } from '@forge/shared';
import { makeBuild } from '@forge/testing';
import { createFakeClient } from './testing/fake-client.ts';
import { KEYS, renderApp, waitFor } from './testing/render-app.tsx';

let cwd: string;
const ZIP_BYTES = Buffer.from('PK\u0005\u0006'.padEnd(22, '\u0000'), 'latin1');

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'forge-tui-upload-'));
  await writeFile(join(cwd, 'site.zip'), ZIP_BYTES);
  await mkdir(join(cwd, 'sites'));
  await writeFile(join(cwd, 'notes.txt'), 'not a zip');
  // Sparse: 50 MB + 1 byte without writing them.
  await writeFile(join(cwd, 'huge.zip'), '');
  await truncate(join(cwd, 'huge.zip'), MAX_UPLOAD_BYTES + 1);
});

afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

// Each test drives a few dozen renders; under a loaded 2-core CI machine that takes seconds.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
});

const accepted: UploadResult = {
  projectName: 'site',
  builderBots: ['BuildBot'],
  buildResult: { success: true, hasPackageJson: false },
  buildId: 'b5-0a0b0c',
};

async function openPrompt(fake = createFakeClient()) {
  const app = renderApp({ fake, cwd });
  await app.connect();
  await app.shows('Fleet · 25');
  app.press('u');
  await app.shows('Upload ZIP ›');
  return app;
}

/** Type `text`, then wait until the prompt line shows it. */
async function type(app: Awaited<ReturnType<typeof openPrompt>>, text: string) {
  app.press(text);
  await app.shows(new RegExp(`Upload ZIP › .*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
}

describe('u: upload prompt', () => {
  it('opens a prompt with its keys in the hint bar, and esc closes it', async () => {
    const app = await openPrompt();
    expect(app.frame()).toContain(`relative to ${cwd}`);
    expect(app.frame()).toMatch(/tab complete\s+enter upload\s+esc cancel/);
    // Keys type into the prompt instead of acting: q does not quit, b does not build.
    await type(app, 'qb');
    expect(app.fake.requests).not.toContain('startBuild');
    app.press(KEYS.escape);
    await waitFor(() => expect(app.frame()).not.toContain('Upload ZIP ›'));
    expect(app.frame()).toMatch(/u upload\s+b build/);
  });

  it('completes folders and .zip files of the working folder with tab', async () => {
    const app = await openPrompt();
    await type(app, 's');
    app.press(KEYS.tab);
    // Two matches: completed to their common prefix and listed.
    await app.shows('site.zip  sites/');
    expect(app.frame()).toMatch(/Upload ZIP › site\s/);
    await type(app, '.');
    app.press(KEYS.tab);
    await app.shows(/Upload ZIP › site\.zip/);

    app.press(KEYS.ctrlU);
    await type(app, 'n');
    app.press(KEYS.tab);
    // notes.txt is not offered: only folders and ZIPs are.
    await app.shows('Nothing to complete: no folder or .zip file matches “n”.');
  });

  it.each([
    ['notes.txt', `${UI_TEXT.invalidFileType} — ${UI_TEXT.invalidFileTypeHint}`],
    ['huge.zip', `${UI_TEXT.fileTooLarge} — ${UI_TEXT.fileTooLargeHint} (huge.zip is 50 MB)`],
    ['sites', 'sites is a folder, not a ZIP file'],
    ['missing.zip', 'No such file: missing.zip'],
  ])('refuses %s with the documented text and keeps the prompt open', async (path, text) => {
    const app = await openPrompt();
    await type(app, path);
    app.press(KEYS.enter);
    await app.shows(text);
    expect(app.frame()).toContain('Upload ZIP ›');
    expect(app.fake.requests).not.toContain('upload');
  });

  it('uploads the file as multipart field "file" and follows the build it started', async () => {
    const build = makeBuild({ id: 'b5-0a0b0c', stages: [['bot-assignment', 0]] });
    const fake = createFakeClient({ routes: { upload: () => accepted, build: () => build } });
    const app = await openPrompt(fake);
    await type(app, 'site.zip');
    app.press(KEYS.enter);
    await app.shows('Uploaded site.zip: project site, build b5-0a0b0c');
    expect(app.frame()).not.toContain('Upload ZIP ›');

    const [input] = fake.callsOf('upload');
    const file = input?.form.get('file');
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe('site.zip');
    expect(Buffer.from(await (file as File).arrayBuffer())).toEqual(ZIP_BYTES);
    await app.shows('Build site b5-0a0b0c');
  });

  it('says when the build it started waits for its turn', async () => {
    const queued = makeBuild({ id: 'b5-0a0b0c' });
    const fake = createFakeClient({
      routes: { upload: () => ({ ...accepted, status: 'queued' }), build: () => queued },
    });
    const app = await openPrompt(fake);
    await type(app, 'site.zip');
    app.press(KEYS.enter);
    await app.shows(
      'Uploaded site.zip: project site, build b5-0a0b0c (queued: it starts when a build slot is free)',
    );
    await app.shows(/Build site b5-0a0b0c queued/);
    expect(app.frame()).toContain('Queued: the build starts when a build slot is free.');
    expect(app.frame().split('\n')[0]).toMatch(/project site\s+Starting/);
  });

  it('takes keys typed in one burst (a paste, tmux send-keys) one by one', async () => {
    const fake = createFakeClient({
      routes: { upload: () => accepted, build: () => makeBuild({ id: 'b5-0a0b0c' }) },
    });
    const app = renderApp({ fake, cwd });
    await app.connect();
    await app.shows('Fleet · 25');
    // u opens the prompt, "site." is typed, tab completes to site.zip, enter uploads.
    app.press('usite.\t');
    await app.shows(/Upload ZIP › site\.zip/);
    app.press('\u0015x\u007Fsite.zip\r');
    await app.shows('Uploaded site.zip: project site, build b5-0a0b0c');
    expect(fake.callsOf('upload')).toHaveLength(1);
  });

  it('says why the daemon refused the upload', async () => {
    const body = JSON.stringify({ error: ERROR_CATALOGUE.ARCHIVE_CORRUPT.message, code: 'ARCHIVE_CORRUPT' });
    const fake = createFakeClient({
      routes: {
        upload: () => {
          throw new ForgeHttpError(422, 'Unprocessable Entity', body);
        },
      },
    });
    const app = await openPrompt(fake);
    await type(app, 'site.zip');
    app.press(KEYS.enter);
    await app.shows(`${UI_TEXT.uploadFailed}: The archive is corrupt or not a ZIP file`);
  });

  it('keeps drawing while the upload is in flight', async () => {
    const fake = createFakeClient({ routes: { upload: () => new Promise<UploadResult>(() => {}) } });
    const app = await openPrompt(fake);
    await type(app, 'site.zip');
    app.press(KEYS.enter);
    await app.shows('Uploading site.zip (22 B)…');
    fake.emit({
      type: 'log',
      botName: 'ExtractBot',
      level: 'info',
      message: 'still alive',
      timestamp: new Date().toISOString(),
    });
    await app.shows('still alive');
    app.press('f');
    await app.shows('No error lines');
  });
});
