import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, onCleanup, startTestApp } from './helpers.ts';
import { buildOf, logsOf } from './build-helpers.ts';
import { onPath } from '../src/capabilities/toolchains/stack-tool.ts';

// Static-site generators through a real daemon, with Debian's jekyll and mkdocs: the site is built by
// the generator and its output folder served; Zola, which Debian does not carry, is named with the
// way to get it.

afterEach(cleanup);

const has = (tool: string) => onPath(tool, process.env.PATH ?? '') !== null;

describe.skipIf(!has('jekyll'))('a Jekyll site', () => {
  it(
    "is built with jekyll and its destination served, a Gemfile this machine's gems satisfy settled offline",
    { timeout: 180_000 },
    async () => {
      const app = await startTestApp();
      const done = await buildOf(app, 'jekyll-site', {
        '_config.yml': 'title: Forge Jekyll\ndestination: built\n',
        Gemfile: 'source "https://rubygems.org"\ngem "jekyll", "~> 4.3"\n',
        '_layouts/default.html':
          '<!doctype html><title>{{ site.title }}</title><h1>{{ site.title }}</h1>{{ content }}\n',
        'index.md': '---\nlayout: default\n---\nWelcome to **Jekyll**.\n',
        '_posts/2024-01-02-first.md': '---\nlayout: default\ntitle: First\n---\nThe first post.\n',
      });
      if (done.status !== 'succeeded')
        throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
      expect(done.blueprint).toMatchObject({
        stack: 'jekyll',
        framework: 'jekyll',
        kind: 'static-build',
        build: ['bundle', 'exec', 'jekyll', 'build'],
        outputDir: 'built',
      });
      expect(done.blueprint!.decisions).toContainEqual(
        expect.objectContaining({ field: 'stack', value: 'jekyll', file: '_config.yml' }),
      );
      expect(done.blueprint!.decisions).toContainEqual(
        expect.objectContaining({ field: 'outputDir', value: 'built', rule: 'destination in _config.yml' }),
      );
      expect(done.blueprint!.runtime).toMatchObject({ tool: 'jekyll', source: 'machine' });
      const page = await (await fetch(done.previewUrl!)).text();
      expect(page).toContain('<h1>Forge Jekyll</h1>');
      expect(page).toContain('<p>Welcome to <strong>Jekyll</strong>.</p>');
      const post = await (await fetch(new URL('2024/01/02/first.html', done.previewUrl!))).text();
      expect(post).toContain('The first post.');
    },
  );

  it("that uses a plugin this machine lacks fails in Jekyll's own words", { timeout: 180_000 }, async () => {
    const app = await startTestApp();
    const done = await buildOf(app, 'jekyll-plugin', {
      '_config.yml': 'title: x\nplugins:\n  - jekyll-not-a-real-plugin\n',
      '_layouts/default.html': '{{ content }}\n',
      'index.md': '---\nlayout: default\n---\nx\n',
    });
    expect(done.status).toBe('failed');
    expect(done.error!.code).toBe('BUILD_FAILED');
    expect(done.error!.firstLine).toMatch(/jekyll-not-a-real-plugin/);
  });
});

describe.skipIf(!has('mkdocs'))('an MkDocs site', () => {
  it('is built with mkdocs and its site_dir served', { timeout: 180_000 }, async () => {
    const app = await startTestApp();
    const done = await buildOf(app, 'mkdocs-site', {
      'mkdocs.yml': 'site_name: Forge MkDocs\nsite_dir: out\nnav:\n  - Home: index.md\n  - Guide: guide.md\n',
      'docs/index.md': '# Welcome\n\nBuilt by MkDocs.\n',
      'docs/guide.md': '# The guide\n\nSecond page.\n',
    });
    if (done.status !== 'succeeded')
      throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
    expect(done.blueprint).toMatchObject({
      stack: 'mkdocs',
      kind: 'static-build',
      build: ['mkdocs', 'build'],
      outputDir: 'out',
    });
    expect(done.blueprint!.decisions).toContainEqual(
      expect.objectContaining({ field: 'stack', value: 'mkdocs', file: 'mkdocs.yml' }),
    );
    const page = await (await fetch(done.previewUrl!)).text();
    expect(page).toContain('<title>Forge MkDocs</title>');
    expect(page).toContain('Built by MkDocs.');
    const guide = await (await fetch(new URL('guide/', done.previewUrl!))).text();
    expect(guide).toContain('Second page.');
  });
});

describe('a Zola site on a machine without zola', () => {
  it('is named, with where zola comes from', { timeout: 60_000 }, async () => {
    const before = process.env.PATH ?? '';
    process.env.PATH = before
      .split(path.delimiter)
      .filter((dir) => !fs.existsSync(path.join(dir, 'zola')))
      .join(path.delimiter);
    onCleanup(() => {
      process.env.PATH = before;
    });
    const app = await startTestApp();
    const done = await buildOf(app, 'zola-site', {
      'config.toml': 'base_url = "https://example.org"\ntitle = "Z"\n',
      'content/_index.md': '+++\ntitle = "Home"\n+++\n',
      'templates/index.html': '<h1>{{ section.title }}</h1>',
    });
    expect(done.status).toBe('failed');
    expect(done.blueprint).toMatchObject({ stack: 'zola', build: ['zola', 'build'], outputDir: 'public' });
    expect(done.error!.code).toBe('TOOLCHAIN_UNAVAILABLE');
    expect(done.error!.message).toMatch(
      /^Zola \(config\.toml\) needs zola; zola is not on this machine's PATH\. Install it with: /,
    );
    expect(done.error!.hint).toMatch(/zola/);
    expect(done.diagnosis).toMatchObject({ code: 'TOOLCHAIN_MISSING', subjects: ['zola'] });
  });
});
