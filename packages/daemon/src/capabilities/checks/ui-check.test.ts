import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../../test/support/checks-tree.ts';
import { checkOutput, OUTSIDE_OUTPUT_NOTE, resolveRef } from './ui-check.ts';

let base: string;
let out: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: base, cleanup } = await tempDir());
  out = path.join(base, 'dist');
  await mkdir(out);
});
afterEach(() => cleanup());

const VITE_INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/vite.svg" />
    <title>App</title>
    <script type="module" crossorigin src="/assets/index-B1x2.js?v=3#top"></script>
    <link rel="modulepreload" crossorigin href="/assets/vendor-C9.js">
    <link rel="stylesheet" crossorigin href="/assets/index-D4.css">
    <link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter">
    <script src="//cdn.example.com/lib.js"></script>
    <script>const tpl = '<img src="/only-in-a-string.png">';</script>
  </head>
  <body>
    <!-- <img src="/commented-out.png"> -->
    <img src="data:image/png;base64,iVBORw0KGgo=" alt="">
    <img src="blob:http://localhost/123">
    <img src="/assets/my%20logo.png" srcset="/assets/my%20logo.png 1x, /assets/logo@2x.png 2x">
    <a href="/about">About</a> <a href="mailto:a@b.c">mail</a> <a href="#main">skip</a>
    <div id="root"></div>
  </body>
</html>`;

describe('checkOutput', () => {
  it('passes a Vite-style output whose every local asset exists, ignoring external and inline refs', async () => {
    await writeTree(out, {
      'index.html': VITE_INDEX,
      'vite.svg': '<svg/>',
      'assets/index-B1x2.js': 'console.log(1)',
      'assets/vendor-C9.js': '',
      'assets/index-D4.css': 'body{}',
      'assets/my logo.png': 'png',
      'assets/logo@2x.png': 'png',
    });
    expect(await checkOutput(out)).toEqual({ ok: true, hasIndexHtml: true, missingAssets: [] });
  });

  it('reports missing root-absolute and relative assets, relative to the output', async () => {
    await writeTree(out, {
      'index.html': VITE_INDEX,
      'vite.svg': '<svg/>',
      'assets/index-B1x2.js': '',
      'assets/my logo.png': 'png',
      'assets/logo@2x.png': 'png',
      'docs/guide/page.html': `<link rel="stylesheet" href="../../assets/index-D4.css">
        <script src="./page.js"></script><img src="img/shot.png"><img src="../../vite.svg">`,
      'docs/guide/page.js': '',
    });
    expect(await checkOutput(out)).toEqual({
      ok: false,
      hasIndexHtml: true,
      missingAssets: ['assets/index-D4.css', 'assets/vendor-C9.js', 'docs/guide/img/shot.png'],
    });
  });

  it('fails without an index.html at the root, even when other pages are fine', async () => {
    await writeTree(out, { 'pages/home.html': '<script src="app.js"></script>', 'pages/app.js': '' });
    expect(await checkOutput(out)).toEqual({ ok: false, hasIndexHtml: false, missingAssets: [] });
    expect(await checkOutput(path.join(base, 'no-such-dir'))).toEqual({
      ok: false,
      hasIndexHtml: false,
      missingAssets: [],
    });
  });

  it('never looks outside the output: encoded traversal is reported, ".." above the root stays at the root', async () => {
    await writeFile(path.join(base, 'secret.js'), 'outside');
    await writeTree(out, {
      'index.html': `<script src="/%2e%2e%2fsecret.js"></script>
        <script src="/..%2Fsecret.js"></script>
        <script src="../secret.js"></script>`,
    });
    const report = await checkOutput(out);
    // "../secret.js" from the root page is "/secret.js" to a browser: inside the output, and missing.
    expect(report.missingAssets).toEqual([
      `/%2e%2e%2fsecret.js${OUTSIDE_OUTPUT_NOTE}`,
      `/..%2Fsecret.js${OUTSIDE_OUTPUT_NOTE}`,
      'secret.js',
    ]);
    expect(report.ok).toBe(false);
  });

  it('counts a link to a file inside the output as present and one leading outside as missing', async () => {
    await writeFile(path.join(base, 'outside.js'), 'outside');
    await writeTree(out, {
      'index.html': '<script src="/alias.js"></script><script src="/leak.js"></script>',
      'real.js': '',
    });
    await symlink('real.js', path.join(out, 'alias.js'));
    await symlink(path.join(base, 'outside.js'), path.join(out, 'leak.js'));
    expect((await checkOutput(out)).missingAssets).toEqual(['leak.js']);
  });

  it('does not count dotfiles (the preview never serves them) and honours <base href>', async () => {
    await writeTree(out, {
      'index.html':
        '<base href="/app/"><script src="main.js"></script><link rel="manifest" href="/.well-known/m.json">',
      'app/main.js': '',
      '.well-known/m.json': '{}',
    });
    expect((await checkOutput(out)).missingAssets).toEqual(['.well-known/m.json']);
  });
});

describe('resolveRef', () => {
  it('resolves like a browser on the preview origin', () => {
    expect(resolveRef('/assets/a.js?x#y', '/docs/')).toEqual({ kind: 'local', rel: 'assets/a.js' });
    expect(resolveRef('a.js', '/docs/')).toEqual({ kind: 'local', rel: 'docs/a.js' });
    expect(resolveRef('../../../a.js', '/docs/')).toEqual({ kind: 'local', rel: 'a.js' });
    expect(resolveRef('sub/', '/')).toEqual({ kind: 'local', rel: 'sub/index.html' });
    expect(resolveRef('%E2%82%AC.png', '/')).toEqual({ kind: 'local', rel: '€.png' });
    expect(resolveRef('\\assets\\a.js', '/')).toEqual({ kind: 'local', rel: 'assets/a.js' });
    for (const external of [
      'https://x.y/a.js',
      'HTTP://x',
      '//cdn/x.js',
      'data:,x',
      'blob:x',
      'mailto:a',
      '#x',
      '',
    ]) {
      expect(resolveRef(external, '/')).toEqual({ kind: 'skip' });
    }
    expect(resolveRef('a.js', '/', 'https://cdn.example.com/')).toEqual({ kind: 'skip' });
    expect(resolveRef('/a%00.js', '/')).toEqual({ kind: 'outside' });
  });
});
