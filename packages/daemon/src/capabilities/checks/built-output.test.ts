import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeBlueprint } from '@forge/testing';
import { builtOutput } from './built-output.ts';
import { CLOCK_SLACK_MS } from './written-output.ts';

/**
 * Each test writes the upload, lets the clock pass its file times (the build "starts" then), and
 * writes what the build writes: only the second set is the build's.
 */
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  }
}

/** A project as uploaded, then built: returns its folder and when the build started. */
async function built(
  uploaded: Record<string, string>,
  written: Record<string, string>[],
): Promise<{ dir: string; since: number }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-output-'));
  dirs.push(dir);
  await write(dir, { 'package.json': '{}', ...uploaded });
  const uploadedAt = Date.now();
  while (Date.now() <= uploadedAt + CLOCK_SLACK_MS + 2) await new Promise((resolve) => setImmediate(resolve));
  const since = Date.now();
  for (const batch of written) {
    await write(dir, batch);
    // Later batches are newer, as a build's last writes are (past the file clock's tick).
    const at = Date.now();
    while (Date.now() <= at + CLOCK_SLACK_MS + 5) await new Promise((resolve) => setImmediate(resolve));
  }
  return { dir, since };
}

const plan = (
  outputDir: string,
  decisions: { field: string; value: string; file: string | null; rule: string }[] = [],
) => makeBlueprint({ outputDir, decisions });

describe('the output a build wrote', () => {
  it('is the planned folder when the build wrote its index.html there', async () => {
    const { dir, since } = await built({}, [{ 'dist/index.html': '<h1>ok</h1>' }]);
    expect(await builtOutput({ projectDir: dir, blueprint: plan('dist'), since })).toEqual({
      ok: true,
      dir: 'dist',
      found: null,
    });
  });

  it('is found where a computed folder put it (webpack path.resolve("dist", env))', async () => {
    const { dir, since } = await built(
      {
        'webpack.config.js':
          "module.exports = (env) => ({ output: { path: path.resolve('dist', env.target) } })",
      },
      [
        {
          'dist/production/index.html': '<h1>prod</h1>',
          'dist/production/about/index.html': '<h1>about</h1>',
        },
      ],
    );
    const out = await builtOutput({ projectDir: dir, blueprint: plan('dist'), since });
    // The site's root, not one of its pages.
    expect(out).toMatchObject({
      ok: true,
      dir: 'dist/production',
      found: { index: 'dist/production/index.html' },
    });
  });

  it("prefers the folder a deploy config publishes, then a framework's folder, over a newer page elsewhere", async () => {
    const netlify = await built({ 'netlify.toml': '[build]\npublish = ".vitepress/dist"\n' }, [
      { '.vitepress/dist/index.html': '<h1>docs</h1>' },
      { 'coverage/index.html': '<h1>coverage</h1>' },
    ]);
    expect(
      await builtOutput({ projectDir: netlify.dir, blueprint: plan('dist'), since: netlify.since }),
    ).toMatchObject({
      ok: true,
      dir: '.vitepress/dist',
      found: { why: expect.stringContaining('netlify.toml') },
    });

    const framework = await built({}, [
      { 'out/index.html': '<h1>site</h1>' },
      { 'coverage/index.html': '<h1>c</h1>' },
    ]);
    expect(
      await builtOutput({ projectDir: framework.dir, blueprint: plan('dist'), since: framework.since }),
    ).toMatchObject({
      ok: true,
      dir: 'out',
      found: { why: expect.stringContaining('out/') },
    });

    const newest = await built({}, [
      { 'site-a/index.html': 'a' },
      { 'site-b/index.html': 'b' },
      { 'coverage/lcov-report/index.html': 'a report, never the site' },
    ]);
    expect(
      await builtOutput({ projectDir: newest.dir, blueprint: plan('dist'), since: newest.since }),
    ).toMatchObject({
      ok: true,
      dir: 'site-b',
      found: { why: expect.stringContaining('newest') },
    });
  });

  it('takes a freshly written site over a planned folder whose index.html came with the upload', async () => {
    const { dir, since } = await built({ 'public/index.html': '<p>template</p>' }, [
      { 'build/index.html': '<p>built</p>' },
    ]);
    expect(await builtOutput({ projectDir: dir, blueprint: plan('public'), since })).toMatchObject({
      ok: true,
      dir: 'build',
    });
  });

  it('never offers what the upload brought, node_modules, or the app folder itself', async () => {
    const { dir, since } = await built({ 'public/index.html': '<p>icons</p>', 'public/icon.svg': '<svg/>' }, [
      {
        'node_modules/.cache/report/index.html': 'x',
        'index.html': '<p>rewritten root</p>',
        'dist/app.js': '1',
      },
    ]);
    const out = await builtOutput({ projectDir: dir, blueprint: plan('build'), since });
    expect(out).toEqual({
      ok: false,
      code: 'OUTPUT_MISSING',
      message:
        'The build finished but its output folder "build" was not created. It wrote files to "dist", with no index.html at their root.',
    });
    expect(JSON.stringify(out)).not.toContain('public');
  });

  it("does not take a page deep in the planned folder for the site's root", async () => {
    const { dir, since } = await built({}, [
      { 'public/2026/05/01/hello/index.html': '<p>post</p>', 'public/css/a.css': '' },
    ]);
    const out = await builtOutput({ projectDir: dir, blueprint: plan('public'), since });
    expect(out).toMatchObject({ ok: false, code: 'OUTPUT_NO_INDEX' });
    expect(out.ok === false && out.message).toContain('It holds 2026/05/01/hello/index.html.');
  });

  it('fails OUTPUT_NO_INDEX when the folder was written without an index.html, naming its pages', async () => {
    const { dir, since } = await built({}, [
      { 'dist/about.html': 'a', 'dist/blog/post.html': 'p', 'dist/app.js': '1' },
    ]);
    const out = await builtOutput({ projectDir: dir, blueprint: plan('dist'), since });
    expect(out).toMatchObject({ ok: false, code: 'OUTPUT_NO_INDEX' });
    expect(out.ok === false && out.message).toContain('It holds about.html, blog/post.html.');

    const none = await built({}, [{ 'dist/app.js': '1' }]);
    const bare = await builtOutput({ projectDir: none.dir, blueprint: plan('dist'), since: none.since });
    expect(bare.ok === false && bare.message).toContain('It holds no HTML file.');
  });

  it('serves the folder the forge config names, and looks nowhere else', async () => {
    const pinned = [
      { field: 'outputDir', value: 'public', file: '.forgerc.json', rule: 'outputDir from the forge config' },
    ];
    const { dir, since } = await built({ 'public/index.html': '<p>mine</p>' }, [
      { 'dist/index.html': '<p>built</p>' },
    ]);
    expect(await builtOutput({ projectDir: dir, blueprint: plan('public', pinned), since })).toEqual({
      ok: true,
      dir: 'public',
      found: null,
    });
  });

  it('looks inside the app folder of a repository of several', async () => {
    const { dir, since } = await built({ 'apps/web/package.json': '{}' }, [
      { 'apps/web/www/index.html': '<p>web</p>', 'apps/admin/dist/index.html': '<p>admin</p>' },
    ]);
    const bp = makeBlueprint({ outputDir: 'apps/web/dist', appDir: 'apps/web' });
    expect(await builtOutput({ projectDir: dir, blueprint: bp, since })).toMatchObject({
      ok: true,
      dir: 'apps/web/www',
    });
  });
});
