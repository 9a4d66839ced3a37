import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pythonWheelOfFiles } from '@forge/testing';
import { cleanup, onCleanup, startTestApp, tempDir } from './helpers.ts';
import { buildOf, logsOf } from './build-helpers.ts';
import { onPath } from '../src/capabilities/toolchains/stack-tool.ts';

// What a site's or app's own files ask to install, installed with its own tool before the build:
// a Jekyll site's Gemfile with Bundler (a plugin gem from a gem source the test serves on loopback,
// rubygems.org being unreachable), an MkDocs site's requirements.txt with pip into its virtual
// environment (a plugin wheel the test makes), and composer.json without a lock with Composer.

afterEach(cleanup);

const has = (tool: string) => onPath(tool, process.env.PATH ?? '') !== null;

/** Serve a folder's files on loopback (a static gem source: `gem generate_index`'s output). */
async function serveFolder(dir: string): Promise<string> {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
    const file = path.join(dir, rel);
    if (!rel.includes('..') && fs.existsSync(file) && fs.statSync(file).isFile()) {
      res.writeHead(200);
      res.end(fs.readFileSync(file));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** A gem source holding one Jekyll plugin gem (a Liquid tag), built with `gem build`. */
async function gemSource(): Promise<string> {
  const dir = tempDir('forge-gems-');
  fs.mkdirSync(path.join(dir, 'plugin/lib'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'plugin/forge-hello.gemspec'),
    'Gem::Specification.new do |s|\n  s.name = "forge-hello"\n  s.version = "0.1.0"\n  s.summary = "A Liquid tag"\n  s.authors = ["Forge"]\n  s.files = ["lib/forge-hello.rb"]\nend\n',
  );
  fs.writeFileSync(
    path.join(dir, 'plugin/lib/forge-hello.rb'),
    'class ForgeHelloTag < Liquid::Tag\n  def render(_context) = "Hello from a plugin gem"\nend\nLiquid::Template.register_tag("forge_hello", ForgeHelloTag)\n',
  );
  execFileSync('gem', ['build', 'forge-hello.gemspec'], { cwd: path.join(dir, 'plugin'), stdio: 'pipe' });
  fs.mkdirSync(path.join(dir, 'source/gems'), { recursive: true });
  fs.copyFileSync(
    path.join(dir, 'plugin/forge-hello-0.1.0.gem'),
    path.join(dir, 'source/gems/forge-hello-0.1.0.gem'),
  );
  execFileSync('gem', ['generate_index', '--directory', path.join(dir, 'source')], { stdio: 'pipe' });
  return serveFolder(path.join(dir, 'source'));
}

const JEKYLL_SITE = {
  '_config.yml': 'title: Forge Bundle\n',
  '_layouts/default.html': '<!doctype html><title>{{ site.title }}</title>{{ content }}\n',
  'index.html': '---\nlayout: default\n---\n<p>{% forge_hello %}</p>\n',
};

describe.skipIf(!has('jekyll') || !has('bundle') || !has('gem'))("a Jekyll site's Gemfile", () => {
  it(
    "is installed with Bundler into the project's gem folder and its plugin runs in the build",
    { timeout: 120_000 },
    async () => {
      const source = await gemSource();
      const app = await startTestApp();
      const done = await buildOf(app, 'jekyll-bundle', {
        ...JEKYLL_SITE,
        Gemfile: `source "${source}"\ngem "jekyll", "~> 4.3"\ngroup :jekyll_plugins do\n  gem "forge-hello"\nend\n`,
      });
      if (done.status !== 'succeeded')
        throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
      expect(done.blueprint).toMatchObject({
        stack: 'jekyll',
        install: ['sh', '-c', 'bundle check || bundle install'],
        build: ['bundle', 'exec', 'jekyll', 'build'],
        outputDir: '_site',
      });
      expect(done.blueprint!.decisions).toContainEqual(
        expect.objectContaining({ field: 'install', file: 'Gemfile' }),
      );
      expect(await logsOf(app, done.id)).toMatch(/Installing forge-hello 0\.1\.0/);
      // The plugin gem is the project's, in FORGE_HOME, not the machine's.
      const gems = path.join(app.home, 'gems', 'jekyll-bundle', 'gems');
      expect(fs.readdirSync(gems)).toContain('forge-hello-0.1.0');
      const page = await (await fetch(done.previewUrl!)).text();
      expect(page).toContain('<p>Hello from a plugin gem</p>');
    },
  );

  it('that needs a gem its source lacks fails at install naming the gem', { timeout: 120_000 }, async () => {
    const source = await gemSource();
    const app = await startTestApp();
    const done = await buildOf(app, 'jekyll-missing-gem', {
      ...JEKYLL_SITE,
      Gemfile: `source "${source}"\ngem "jekyll", "~> 4.3"\ngem "forge-hello"\ngem "jekyll-not-on-the-source"\n`,
    });
    expect(done.status).toBe('failed');
    expect(done.error!.code).toBe('INSTALL_FAILED');
    expect(done.diagnosis).toMatchObject({
      code: 'PACKAGE_NOT_ON_REGISTRY',
      file: 'Gemfile',
      subjects: ['jekyll-not-on-the-source', source],
    });
    expect(done.diagnosis!.summary).toMatch(/jekyll-not-on-the-source/);
  });
});

const MKDOCS_PLUGIN = `from mkdocs.plugins import BasePlugin


class HelloPlugin(BasePlugin):
    def on_page_content(self, html, **kwargs):
        return html + '<p>Hello from an MkDocs plugin</p>'
`;

describe.skipIf(!has('mkdocs'))("an MkDocs site's requirements.txt", () => {
  it(
    'is installed into its virtual environment and the plugin it names runs in the build',
    { timeout: 120_000 },
    async () => {
      const app = await startTestApp();
      const done = await buildOf(app, 'mkdocs-plugin', {
        'mkdocs.yml': 'site_name: Forge Plugins\nplugins:\n  - forge-hello\n',
        'requirements.txt': '--no-index\n--find-links wheels\nforge-hello==1.0\n',
        'wheels/forge_hello-1.0-py3-none-any.whl': pythonWheelOfFiles(
          'forge_hello',
          '1.0',
          { 'forge_hello/__init__.py': MKDOCS_PLUGIN },
          { 'entry_points.txt': '[mkdocs.plugins]\nforge-hello = forge_hello:HelloPlugin\n' },
        ),
        'docs/index.md': '# Welcome\n\nBuilt with a plugin.\n',
      });
      if (done.status !== 'succeeded')
        throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
      expect(done.blueprint).toMatchObject({
        stack: 'mkdocs',
        install: ['python', '-m', 'pip', 'install', '-r', 'requirements.txt'],
        build: ['python', '-m', 'mkdocs', 'build'],
        outputDir: 'site',
      });
      expect(done.blueprint!.decisions).toContainEqual(
        expect.objectContaining({ field: 'install', file: 'requirements.txt' }),
      );
      expect(fs.existsSync(path.join(app.home, 'venvs', 'mkdocs-plugin', 'pyvenv.cfg'))).toBe(true);
      const page = await (await fetch(done.previewUrl!)).text();
      expect(page).toContain('Built with a plugin.');
      expect(page).toContain('<p>Hello from an MkDocs plugin</p>');
    },
  );
});

describe.skipIf(!has('php') || !has('composer'))('a PHP site with composer.json and no lock', () => {
  it('is installed with composer, which resolves it and writes the lock', { timeout: 120_000 }, async () => {
    const app = await startTestApp();
    const done = await buildOf(app, 'php-unlocked', {
      'composer.json': JSON.stringify({
        name: 'forge/site',
        require: { php: '>=8.1', 'forge/greeter': '^1.0' },
        repositories: [{ type: 'path', url: 'packages/greeter', options: { symlink: false } }],
      }),
      'packages/greeter/composer.json': JSON.stringify({
        name: 'forge/greeter',
        version: '1.0.0',
        autoload: { 'psr-4': { 'Forge\\Greeter\\': 'src/' } },
      }),
      'packages/greeter/src/Greeter.php':
        "<?php\nnamespace Forge\\Greeter;\n\nfinal class Greeter\n{\n    public static function hello(): string\n    {\n        return 'Hello, resolved';\n    }\n}\n",
      'index.php':
        "<?php\nrequire __DIR__ . '/vendor/autoload.php';\necho '<h1>' . \\Forge\\Greeter\\Greeter::hello() . '</h1>';\n",
    });
    if (done.status !== 'succeeded')
      throw new Error(`${JSON.stringify(done.error)}\n${await logsOf(app, done.id)}`);
    expect(done.blueprint!.install).toEqual(['composer', 'install', '--no-interaction', '--no-dev']);
    expect(done.blueprint!.decisions).toContainEqual(
      expect.objectContaining({
        field: 'install',
        file: 'composer.json',
        rule: expect.stringMatching(/no composer\.lock/),
      }),
    );
    expect(await logsOf(app, done.id)).toMatch(/Installing forge\/greeter \(1\.0\.0\)/);
    expect(await (await fetch(done.previewUrl!)).text()).toBe('<h1>Hello, resolved</h1>');
  });
});
