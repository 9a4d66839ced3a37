import { describe, expect, it } from 'vitest';
import { detectBlueprint } from './detect-blueprint.ts';
import { useProjects } from '../../../test/support/detect-project.ts';

const makeProject = useProjects();
const NPM = 'https://registry.npmjs.org/';
const machine = { git: true, registry: NPM };

const viteApp = (extra: Record<string, unknown> = {}) => ({
  name: 'shop',
  private: true,
  scripts: { build: 'vite build', test: 'cypress run' },
  devDependencies: { vite: '^6.0.0', ...extra },
});

describe('the build machine in the plan', () => {
  it('skips Cypress, Playwright and Puppeteer downloads at install, each with its evidence; the forge config env wins', async () => {
    const dir = await makeProject({
      'package.json': viteApp({ cypress: '^13.17.0', '@playwright/test': '^1.49.0' }),
      'index.html': '<div id="app"></div>',
      'package-lock.json': JSON.stringify({
        lockfileVersion: 3,
        packages: { '': {}, 'node_modules/puppeteer': { version: '23.0.0' } },
      }),
      '.forgerc.json': { env: { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '0' } },
    });
    const bp = await detectBlueprint(dir, { machine });
    expect(bp.env).toEqual({
      CYPRESS_INSTALL_BINARY: '0',
      PUPPETEER_SKIP_DOWNLOAD: 'true',
      PUPPETEER_SKIP_CHROMIUM_DOWNLOAD: 'true',
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '0',
    });
    const downloads = bp.decisions.filter((d) => d.field === 'binaryDownload');
    expect(downloads).toEqual([
      {
        field: 'binaryDownload',
        value: 'CYPRESS_INSTALL_BINARY=0',
        file: 'package.json',
        rule: expect.stringMatching(
          /^cypress \(devDependencies\) downloads Cypress's test runner at install; building does not need it/,
        ),
      },
      expect.objectContaining({
        value: 'PUPPETEER_SKIP_DOWNLOAD=true PUPPETEER_SKIP_CHROMIUM_DOWNLOAD=true',
        file: 'package-lock.json',
      }),
    ]);
  });

  it('a project without those tools gets no switch', async () => {
    const dir = await makeProject({ 'package.json': viteApp(), 'index.html': '<div id="app"></div>' });
    const bp = await detectBlueprint(dir, { machine });
    expect(bp.env).toEqual({});
    expect(bp.decisions.some((d) => d.field === 'binaryDownload')).toBe(false);
  });

  it('says the build gets a git repository of the upload when git is on the machine, and why not when it is not', async () => {
    const dir = await makeProject({ 'package.json': viteApp(), 'index.html': '<div id="app"></div>' });
    const yes = await detectBlueprint(dir, { machine });
    expect(yes.gitSnapshot).toBe(true);
    expect(yes.decisions.find((d) => d.field === 'git')).toMatchObject({ value: 'snapshot', file: null });
    const no = await detectBlueprint(dir, { machine: { ...machine, git: false } });
    expect(no.gitSnapshot).toBe(false);
    expect(no.decisions.find((d) => d.field === 'git')?.rule).toMatch(/git is not installed on this machine/);
    // A plain static site runs nothing: no repository, no decision.
    const site = await detectBlueprint(await makeProject({ 'index.html': '<h1>hi</h1>' }), { machine });
    expect(site.gitSnapshot).toBe(false);
    expect(site.decisions.some((d) => d.field === 'git')).toBe(false);
  });

  it("npm: a lockfile on one mirror host is installed with npm's --replace-registry-host", async () => {
    const dir = await makeProject({
      'package.json': { name: 'shop', scripts: { build: 'vite build' }, devDependencies: { vite: '6.0.0' } },
      'index.html': '<div id="app"></div>',
      'package-lock.json': JSON.stringify({
        lockfileVersion: 3,
        packages: {
          'node_modules/vite': { resolved: 'https://registry.npmmirror.com/vite/-/vite-6.0.0.tgz' },
          'node_modules/esbuild': { resolved: 'https://registry.npmmirror.com/esbuild/-/esbuild-0.24.0.tgz' },
        },
      }),
    });
    const bp = await detectBlueprint(dir, { machine });
    expect(bp.mirrorHosts).toEqual(['registry.npmmirror.com']);
    expect(bp.env.npm_config_replace_registry_host).toBe('registry.npmmirror.com');
    expect(bp.decisions.find((d) => d.field === 'registry')).toEqual({
      field: 'registry',
      value: `registry.npmmirror.com → ${NPM}`,
      file: 'package-lock.json',
      rule: `2 resolved URLs on registry.npmmirror.com, a registry this machine does not reach: installed from ${NPM} instead, by npm's --replace-registry-host=registry.npmmirror.com (npm_config_replace_registry_host)`,
    });
  });

  it('Yarn 1: a lockfile on a mirror is rewritten before the install (there is no flag)', async () => {
    const dir = await makeProject({
      'package.json': { name: 'shop', scripts: { build: 'vite build' }, devDependencies: { vite: '6.0.0' } },
      'index.html': '<div id="app"></div>',
      'yarn.lock':
        '# yarn lockfile v1\n\nvite@6.0.0:\n  version "6.0.0"\n  resolved "https://registry.npmmirror.com/vite/-/vite-6.0.0.tgz#abc"\n',
    });
    const bp = await detectBlueprint(dir, { machine });
    expect(bp.packageManager).toBe('yarn');
    expect(bp.mirrorHosts).toEqual(['registry.npmmirror.com']);
    expect(bp.env.npm_config_replace_registry_host).toBeUndefined();
    expect(bp.decisions.find((d) => d.field === 'registry')?.rule).toMatch(
      /by yarn\.lock rewritten before the install \(its resolved URLs only\)$/,
    );
  });
});
