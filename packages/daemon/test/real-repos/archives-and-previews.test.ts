import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliResult, type Build } from '@forge/shared';
import { forgeZip, S_IFLNK, type ForgedEntry, type ProjectFiles } from '@forge/testing';
import { tempDir } from '../helpers.ts';
import { viteApp } from '../real-world-projects.ts';
import { RealDaemon, json, lastDecision, type CliRun } from './harness.ts';

/**
 * Archives as repositories make them, and previews of real sites (docs/pipeline.md, "Extraction"
 * and "Preview"): links inside the project kept, links out left out one by one, a committed
 * node_modules fixture kept while the uploaded install is not, a multi-page site with its own
 * 404.html, a Vite single-page app. One daemon for the file; every project uploaded up front and
 * built side by side; each `it` awaits its own build and checks what a user sees.
 */

const BUILD_TIMEOUT_MS = 240_000;
const TEST_TIMEOUT_MS = BUILD_TIMEOUT_MS + 30_000;
const link = (name: string, target: string): ForgedEntry => ({
  name,
  data: target,
  unixMode: S_IFLNK | 0o777,
});
/** Files and links under one top folder, as `git archive --prefix=<name>/` writes them. */
function archive(top: string, files: ProjectFiles, links: Array<[string, string]> = []): string {
  const entries: ForgedEntry[] = [
    ...Object.entries(files).map(([name, data]) => ({ name: `${top}/${name}`, data })),
    ...links.map(([name, target]) => link(`${top}/${name}`, target)),
  ];
  const file = path.join(tempDir('forge-archive-'), `${top}.zip`);
  fs.writeFileSync(file, forgeZip(entries));
  return file;
}

/** A Vite app (create-vite) whose agent notes and shared code are links, as its repository keeps them. */
function linkedViteApp(): { files: ProjectFiles; links: Array<[string, string]> } {
  const base = viteApp('linked-vite', 'Vite with links');
  return {
    files: {
      ...base,
      'AGENTS.md': '# Rules for coding agents\n\nRun `npm run build` before you commit.\n',
      'shared/greeting.js': "export const greeting = 'Hello through a linked folder'\n",
      'src/main.js': `${base['src/main.js'] as string}
import { greeting } from './shared/greeting.js'
document.querySelector('#app').insertAdjacentHTML('beforeend', \`<p>\${greeting}</p>\`)
`,
    },
    links: [
      ['CLAUDE.md', 'AGENTS.md'],
      ['src/shared', '../shared'],
    ],
  };
}

/** A hand-written site whose repository has links that leave it (a dotfiles habit) and one that stays. */
const OUTWARD_SITE: ProjectFiles = {
  'index.html': '<!doctype html><title>Outward</title><h1>A site with stray links</h1>\n',
};
const OUTWARD_LINKS: Array<[string, string]> = [
  ['home.html', 'index.html'],
  ['passwd', '/etc/passwd'],
  ['config', '../../../../.config'],
  ['loop', 'loop'],
];

/** A multi-page static site (no build) with its own 404 page and Netlify rules. */
const MULTI_PAGE: ProjectFiles = {
  'index.html': '<!doctype html><title>Notes</title><h1>Notes home</h1><a href="/edit">Edit</a>\n',
  'edit.html': '<!doctype html><title>Edit</title><h1>Edit a note</h1>\n',
  'docs/index.html': '<!doctype html><title>Docs</title><h1>Notes documentation</h1>\n',
  '404.html': '<!doctype html><title>Lost</title><h1>This note does not exist</h1>\n',
  _redirects: ['/write   /edit   301', '/api/*   https://api.notes.example/:splat   200', ''].join('\n'),
};

/**
 * A repository whose tests read a committed fixture package from test/fixtures/app/node_modules, zipped
 * with the root node_modules a `npm install` left on another machine.
 */
const WITH_FIXTURES: ProjectFiles = {
  'package.json': json({
    name: 'fixture-reader',
    private: true,
    version: '1.0.0',
    scripts: { build: 'node build.mjs', test: 'node --test test/fixture.test.js' },
  }),
  'build.mjs': `import { createRequire } from 'node:module'
import { mkdirSync, writeFileSync } from 'node:fs'
const require = createRequire(import.meta.url)
const message = require('./test/fixtures/app')
mkdirSync('dist', { recursive: true })
writeFileSync('dist/index.html', \`<!doctype html><title>Fixtures</title><h1>\${message}</h1>\\n\`)
`,
  'test/fixture.test.js': `const test = require('node:test')
const assert = require('node:assert')
test('the fixture app resolves its dependency from its own node_modules', () => {
  assert.strictEqual(require('./fixtures/app'), 'fixture dependency says hello')
})
`,
  'test/fixtures/app/package.json': json({ name: 'fixture-app', version: '1.0.0', main: 'index.js' }),
  'test/fixtures/app/index.js': "module.exports = require('dep')\n",
  'test/fixtures/app/node_modules/dep/package.json': json({
    name: 'dep',
    version: '1.0.0',
    main: 'index.js',
  }),
  'test/fixtures/app/node_modules/dep/index.js': "module.exports = 'fixture dependency says hello'\n",
  // What `npm install` wrote on another machine: an install, left out.
  'node_modules/.package-lock.json': json({ name: 'fixture-reader', lockfileVersion: 3, packages: {} }),
  'node_modules/left-pad/package.json': json({ name: 'left-pad', version: '1.3.0' }),
  'node_modules/left-pad/index.js': 'module.exports = () => "from elsewhere"\n',
};

type Name = 'linked' | 'outward' | 'fixtures';
let daemon: RealDaemon;
const builds = {} as Record<Name, Promise<Build>>;
let cliRun: Promise<CliRun>;

beforeAll(async () => {
  daemon = await RealDaemon.start('archives', { buildTimeoutMs: BUILD_TIMEOUT_MS });
  const linked = linkedViteApp();
  builds.linked = daemon.buildZip(archive('linked-vite', linked.files, linked.links));
  builds.outward = daemon.buildZip(archive('outward', OUTWARD_SITE, OUTWARD_LINKS));
  builds.fixtures = daemon.buildZip(archive('fixture-reader', WITH_FIXTURES));
  // The multi-page site goes through the built CLI, as a user uploads it.
  cliRun = daemon.forge(['upload', archive('notes-site', MULTI_PAGE), '--wait', '--json']);
}, 60_000);

afterAll(() => daemon.stop(), 120_000);

const logLines = (build: Build) => daemon.logLines(build);
const succeeded = (name: Name) => daemon.ended(builds[name]);

async function get(
  base: string,
  p: string,
): Promise<{ status: number; type: string; body: string; location: string | null }> {
  const res = await fetch(new URL(p, base), { redirect: 'manual' });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: await res.text(),
    location: res.headers.get('location'),
  };
}

const projectPath = (build: Build, rel: string): string =>
  path.join(daemon.home, 'projects', build.projectName, rel);
const decisionOf = (build: Build, field: string) => lastDecision(build.blueprint, field);

describe('archives and previews through a real daemon', { timeout: TEST_TIMEOUT_MS }, () => {
  describe('a Vite app whose repository keeps CLAUDE.md -> AGENTS.md and a linked folder', () => {
    it('keeps both links as links, builds through the linked folder and says so in the record', async () => {
      const build = await succeeded('linked');
      expect(build.extraction).toMatchObject({
        strippedPrefix: 'linked-vite',
        links: [
          { path: 'CLAUDE.md', target: 'AGENTS.md' },
          { path: 'src/shared', target: '../shared' },
        ],
        linkCount: 2,
        linksLeftOut: [],
      });
      expect(fs.lstatSync(projectPath(build, 'CLAUDE.md')).isSymbolicLink()).toBe(true);
      expect(fs.readlinkSync(projectPath(build, 'src/shared'))).toBe('../shared');
      // The file API reads the one file both names show.
      const res = await fetch(`${daemon.url}/api/files/content?project=${build.projectName}&path=CLAUDE.md`);
      expect(((await res.json()) as { content: string }).content).toContain('Rules for coding agents');
      const steps = build.steps.find((s) => s.name === 'extract');
      expect(steps?.detail).toContain('2 links');
    });

    it('is planned as a single-page app, and its preview answers a deep link with index.html', async () => {
      const build = await succeeded('linked');
      expect(build.blueprint).toMatchObject({ framework: 'vite', kind: 'static-build', site: { spa: true } });
      expect(decisionOf(build, 'spa')).toMatchObject({
        value: 'true',
        rule: expect.stringContaining('single-page vite app'),
      });
      const home = await get(build.previewUrl!, '/');
      expect(home.body).toContain('<title>Vite with links</title>');
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(home.body)?.[1];
      expect((await get(build.previewUrl!, script!)).body).toContain('Hello through a linked folder');
      const deep = await get(build.previewUrl!, '/notes/42/edit');
      expect(deep).toMatchObject({ status: 200, body: home.body });
      expect((await get(build.previewUrl!, '/assets/missing.js')).status).toBe(404);
    });
  });

  describe('a site whose repository has links that leave it', () => {
    it('leaves out each outward, absolute and looping link with its reason, and builds the rest', async () => {
      const build = await succeeded('outward');
      expect(build.extraction?.links).toEqual([{ path: 'home.html', target: 'index.html' }]);
      const left = Object.fromEntries((build.extraction?.linksLeftOut ?? []).map((l) => [l.path, l.reason]));
      expect(left).toEqual({
        passwd: expect.stringContaining('absolute path'),
        config: expect.stringContaining('leads out of the project'),
        loop: expect.stringContaining('loops'),
      });
      const lines = await logLines(build);
      expect(lines).toContain(
        'ExtractBot: Left out the link passwd -> /etc/passwd: its target is an absolute path (outside the project).',
      );
      expect(fs.existsSync(projectPath(build, 'passwd'))).toBe(false);
      expect((await get(build.previewUrl!, '/home.html')).body).toContain('A site with stray links');
      // A site of one page: /passwd is a route of it, never the machine's file.
      const passwd = await get(build.previewUrl!, '/passwd');
      expect(passwd.body).toContain('A site with stray links');
      expect(passwd.body).not.toContain('root:');
    });
  });

  describe('a multi-page site with its own 404.html, uploaded with the CLI', () => {
    it('exits 0 with the build result as JSON', async () => {
      const { code, stdout, stderr } = await cliRun;
      expect(code, stderr).toBe(0);
      const result = CliResult.parse(JSON.parse(stdout));
      expect(result).toMatchObject({ status: 'succeeded', projectName: 'notes-site' });
    });

    it('serves /edit, /docs/ and the site’s 404 page with status 404, and applies its _redirects', async () => {
      const result = CliResult.parse(JSON.parse((await cliRun).stdout)) as {
        buildId: string;
        previewUrl: string;
      };
      const build = await daemon.record(result.buildId);
      expect(build.blueprint).toMatchObject({ framework: 'static', kind: 'static', site: { spa: false } });
      expect(decisionOf(build, 'spa')).toMatchObject({ value: 'false', file: 'edit.html' });
      const url = build.previewUrl!;
      expect(await get(url, '/edit')).toMatchObject({
        status: 200,
        body: expect.stringContaining('Edit a note'),
      });
      expect(await get(url, '/docs/')).toMatchObject({
        status: 200,
        body: expect.stringContaining('Notes documentation'),
      });
      expect(await get(url, '/docs')).toMatchObject({ status: 301, location: '/docs/' });
      const lost = await get(url, '/nope');
      expect(lost).toMatchObject({ status: 404, body: expect.stringContaining('This note does not exist') });
      expect(lost.type).toMatch(/text\/html/);
      expect(await get(url, '/write')).toMatchObject({ status: 301, location: '/edit' });
      // The proxy cannot be served here: listed in the plan and the preview's log, and /api/x is a 404.
      expect(decisionOf(build, 'siteRule')).toMatchObject({
        value: 'ignored',
        rule: expect.stringContaining('api.notes.example'),
      });
      expect(await logLines(build)).toContainEqual(
        expect.stringMatching(/PreviewBot: Not applied: _redirects:2 .*proxies to api\.notes\.example/),
      );
      expect((await get(url, '/api/x')).status).toBe(404);
    });
  });

  describe('a repository with a committed test/fixtures/app/node_modules, zipped with an install from elsewhere', () => {
    it('leaves out the install (a DROP_FOREIGN_NODE_MODULES repair) and keeps the fixture for the build and the tests', async () => {
      const build = await succeeded('fixtures');
      expect(build.extraction?.leftOut).toEqual(['fixture-reader/node_modules/']);
      expect(build.repairs).toContainEqual(
        expect.objectContaining({
          code: 'DROP_FOREIGN_NODE_MODULES',
          status: 'applied',
          files: ['fixture-reader/node_modules/'],
        }),
      );
      for (const rel of [
        'test/fixtures/app/node_modules/dep/index.js',
        'test/fixtures/app/node_modules/dep/package.json',
      ]) {
        expect(fs.readFileSync(projectPath(build, rel), 'utf8'), rel).toBe(WITH_FIXTURES[rel]);
      }
      expect(fs.existsSync(projectPath(build, 'node_modules/left-pad'))).toBe(false);
      // The build read the fixture, and the project's own tests passed with it.
      expect((await get(build.previewUrl!, '/')).body).toContain('<h1>fixture dependency says hello</h1>');
      expect(build.test).toMatchObject({ ran: true, passed: true });
    });
  });
});
