import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Diagnosis, type Blueprint, type PackageManager } from '@forge/shared';
import { makeBlueprint } from '@forge/testing';
import { makeTempDir } from '../../../test/support/temp-files.ts';
import { caseNamed, PROJECT_PLACEHOLDER } from './fixtures/cases.ts';
import { diagnose } from './index.ts';
import { readRegistryUrl } from './registry-rules.ts';

/**
 * PACKAGE_NOT_ON_REGISTRY from what npm 11, pnpm 10, Yarn 1.22, Yarn 4 and bun 1 printed here (see
 * fixtures/capture.ts): a range no release of is-odd matches (^9.9.9), a package that was never
 * published, and a lockfile pinning is-odd 3.0.9, which never was. The same installs against a
 * registry that does not answer are NETWORK_AT_BUILD: the two are never taken for each other.
 */
const FIXTURES = path.join(import.meta.dirname, 'fixtures');

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-diagnose-registry-'));
});
afterEach(() => cleanup());

async function diagnoseInstall(name: string, packageManager: PackageManager, over: Partial<Blueprint> = {}) {
  for (const [file, text] of Object.entries(caseNamed(name).files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  const text = await readFile(path.join(FIXTURES, `${name}.txt`), 'utf8');
  const lines = text.split(PROJECT_PLACEHOLDER).join(dir).replace(/\n$/, '').split('\n');
  const d = await diagnose({
    step: 'install',
    status: 'failed',
    error: { code: 'INSTALL_FAILED', message: `${packageManager} install exited with code 1` },
    lines,
    blueprint: makeBlueprint({ packageManager, install: [packageManager, 'install'], ...over }),
    projectDir: dir,
  });
  expect(Diagnosis.parse(d)).toEqual(d);
  return d;
}

const TOOLS = [
  ['npm', 'npm', 'registry.npmjs.org', 'package-lock.json'],
  ['pnpm', 'pnpm', 'registry.npmjs.org', 'pnpm-lock.yaml'],
  ['yarn1', 'yarn', 'registry.yarnpkg.com', 'yarn.lock'],
  ['yarn-berry', 'yarn', 'registry.yarnpkg.com', 'yarn.lock'],
  ['bun', 'bun', 'registry.npmjs.org', 'bun.lock'],
] as const;

describe('PACKAGE_NOT_ON_REGISTRY', () => {
  it.each(TOOLS)(
    '%s: a range no release matches names package.json and its entry',
    async (tool, pm, host) => {
      const d = await diagnoseInstall(`${tool}-no-matching-version`, pm);
      expect(d).toMatchObject({
        code: 'PACKAGE_NOT_ON_REGISTRY',
        file: 'package.json',
        subjects: ['is-odd@^9.9.9', host],
      });
      expect(d.summary).toBe(`package.json asks for is-odd@^9.9.9, and ${host} has no version that matches.`);
      // Only Yarn 2+ was given a (empty) lockfile: the others have none to update.
      const update = tool === 'yarn-berry' ? ', and update yarn.lock' : '';
      expect(
        d.suggestion?.startsWith(
          `Run \`npm view is-odd versions\` to see which versions ${host} has, set dependencies."is-odd" in package.json to a range one of them satisfies${update}.`,
        ),
      ).toBe(true);
      expect(d.repair).toBeUndefined();
    },
  );

  it('pnpm says which release is the latest: that is passed on, nothing is invented', async () => {
    const d = await diagnoseInstall('pnpm-no-matching-version', 'pnpm');
    expect(d.suggestion).toContain('pnpm reported 3.0.1 as its latest release.');
    // The others do not say: no version is named.
    const npm = await diagnoseInstall('npm-no-matching-version', 'npm');
    expect(npm.suggestion).not.toMatch(/\d+\.\d+\.\d+/);
  });

  it.each(TOOLS)('%s: a package that is not on the registry (or is private)', async (tool, pm, host) => {
    const d = await diagnoseInstall(`${tool}-package-not-found`, pm);
    expect(d).toMatchObject({
      code: 'PACKAGE_NOT_ON_REGISTRY',
      file: 'package.json',
      subjects: ['@forge-diagnose/not-published', host],
    });
    expect(d.summary).toBe(
      `${host} has no package named @forge-diagnose/not-published: the install cannot fetch it (it is not published there, or it is private).`,
    );
    expect(d.suggestion).toContain(
      'in package.json (dependencies: "@forge-diagnose/not-published": "^1.0.0")',
    );
    expect(d.suggestion).toContain("Forge's builds have no registry credentials");
  });

  it.each(TOOLS)(
    '%s: a lockfile that pins a version the registry lacks',
    async (tool, pm, host, lockfile) => {
      const d = await diagnoseInstall(`${tool}-lockfile-missing-version`, pm);
      expect(d).toMatchObject({
        code: 'PACKAGE_NOT_ON_REGISTRY',
        file: lockfile,
        subjects: ['is-odd@3.0.9', host],
      });
      expect(d.summary).toBe(
        `${lockfile} pins is-odd 3.0.9 (package.json asks for ^3.0.1), and ${host} has no such version.`,
      );
      expect(d.suggestion).toMatch(new RegExp(`then update ${lockfile.replace('.', '\\.')} to one of them`));
    },
  );

  it('the real case: a scoped package pnpm fetched as the lockfile says', async () => {
    await writeFile(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'site', dependencies: { '@remix-run/logger-middleware': '^0.3.0' } }),
    );
    await writeFile(
      path.join(dir, 'pnpm-lock.yaml'),
      "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      '@remix-run/logger-middleware':\n        specifier: ^0.3.0\n        version: 0.3.1\n\npackages:\n\n  '@remix-run/logger-middleware@0.3.1':\n    resolution: {integrity: sha512-x}\n",
    );
    const d = await diagnose({
      step: 'install',
      status: 'failed',
      error: { code: 'INSTALL_FAILED', message: 'pnpm install exited with code 1' },
      lines: [
        '[ERR_PNPM_FETCH_404] GET https://registry.npmjs.org/@remix-run/logger-middleware/-/logger-middleware-0.3.1.tgz: Not Found - 404',
      ],
      blueprint: makeBlueprint({ packageManager: 'pnpm', install: ['pnpm', 'install', '--frozen-lockfile'] }),
      projectDir: dir,
    });
    expect(d).toMatchObject({
      code: 'PACKAGE_NOT_ON_REGISTRY',
      file: 'pnpm-lock.yaml',
      subjects: ['@remix-run/logger-middleware@0.3.1', 'registry.npmjs.org'],
    });
    expect(d.summary).toBe(
      'pnpm-lock.yaml pins @remix-run/logger-middleware 0.3.1 (package.json asks for ^0.3.0), and registry.npmjs.org has no such version.',
    );
  });

  it('a lockfile resolved against a mirror says the version may exist only there', async () => {
    const d = await diagnoseInstall('npm-lockfile-missing-version', 'npm', {
      mirrorHosts: ['registry.npmmirror.com'],
    });
    expect(d.suggestion).toContain('The lockfile was resolved against registry.npmmirror.com');
  });

  it("a package of the project's own workspace is not sent to the registry's versions", async () => {
    await writeFile(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'shop', dependencies: { '@shop/ui': '^1.0.0' } }),
    );
    const d = await diagnose({
      step: 'install',
      status: 'failed',
      error: { code: 'INSTALL_FAILED', message: 'pnpm install exited with code 1' },
      lines: [' ERR_PNPM_FETCH_404  GET https://registry.npmjs.org/@shop%2Fui: Not Found - 404'],
      blueprint: makeBlueprint({
        packageManager: 'pnpm',
        apps: [{ dir: 'packages/ui', name: '@shop/ui', framework: 'vite', kind: 'static-build' }],
      }),
      projectDir: dir,
    });
    expect(d.code).toBe('PACKAGE_NOT_ON_REGISTRY');
    expect(d.summary).toContain('which is a package of this project itself');
    expect(d.suggestion).toContain('"workspace:*"');
    expect(d.suggestion).not.toContain('npm view');
  });

  it('a 404 for a file on another host (a git host archive) is not a registry package', async () => {
    await writeFile(
      path.join(dir, 'package.json'),
      JSON.stringify({
        name: 'shop',
        dependencies: { widget: 'https://codeload.github.com/acme/widget/tar.gz/0f3c9a1' },
      }),
    );
    const d = await diagnose({
      step: 'install',
      status: 'failed',
      error: { code: 'INSTALL_FAILED', message: 'yarn install exited with code 1' },
      lines: [
        'error Error: https://codeload.github.com/acme/widget/tar.gz/0f3c9a1: Request failed "404 Not Found"',
      ],
      blueprint: makeBlueprint({ packageManager: 'yarn', install: ['yarn', 'install'] }),
      projectDir: dir,
    });
    expect(d.code).not.toBe('PACKAGE_NOT_ON_REGISTRY');
  });

  it.each(TOOLS)('%s: a registry that does not answer is NETWORK_AT_BUILD, never this', async (tool, pm) => {
    const d = await diagnoseInstall(`${tool}-registry-unreachable`, pm);
    expect(d.code).toBe('NETWORK_AT_BUILD');
    // Never the advice for a git or tarball dependency: package.json has none.
    expect(d.suggestion).not.toContain('rather than on a git URL');
  });

  it('an unreachable registry is named as the registry when the output shows what was asked of it', async () => {
    for (const [tool, pm] of [
      ['npm', 'npm'],
      ['pnpm', 'pnpm'],
    ] as const) {
      const d = await diagnoseInstall(`${tool}-registry-unreachable`, pm);
      expect(d.summary).toBe(
        'The install could not reach the package registry at 127.0.0.1:9 (it asked it for is-odd).',
      );
      expect(d.subjects).toEqual(['127.0.0.1:9']);
    }
    const bun = await diagnoseInstall('bun-registry-unreachable', 'bun');
    expect(bun.summary).toBe(
      'The install could not reach the package registry (bun could not download the package manifest of is-odd).',
    );
    for (const tool of ['yarn1', 'yarn-berry']) {
      const d = await diagnoseInstall(`${tool}-registry-unreachable`, 'yarn');
      expect(d.summary).toContain('could not reach 127.0.0.1:9, which no dependency in package.json names');
    }
  });

  it("a project's .npmrc that names an unreachable registry is said to be the registry", async () => {
    await writeFile(path.join(dir, '.npmrc'), 'registry=http://127.0.0.1:9/\n');
    const d = await diagnoseInstall('yarn1-registry-unreachable', 'yarn');
    expect(d.summary).toBe(
      "The install could not reach the package registry at 127.0.0.1:9 (the project's registry setting names it).",
    );
  });

  it.each([
    'npm-git-dependency',
    'npm-tarball-refused',
    'pnpm-git-dependency',
    'yarn1-tarball-refused',
    'yarn-berry-git-dependency',
    'bun-tarball-refused',
  ])('%s (a host that cannot be reached) stays NETWORK_AT_BUILD', async (name) => {
    const pm = name.startsWith('yarn') ? 'yarn' : (name.split('-')[0] as PackageManager);
    expect((await diagnoseInstall(name, pm)).code).toBe('NETWORK_AT_BUILD');
  });
});

describe('readRegistryUrl', () => {
  it.each([
    ['https://registry.npmjs.org/is-odd/-/is-odd-3.0.9.tgz', 'is-odd', '3.0.9', true],
    [
      'https://registry.npmjs.org/@remix-run/logger-middleware/-/logger-middleware-0.3.1.tgz',
      '@remix-run/logger-middleware',
      '0.3.1',
      true,
    ],
    ['https://registry.npmjs.org/@scope%2fname', '@scope/name', null, false],
    ['https://registry.yarnpkg.com/@scope%2Fname', '@scope/name', null, false],
    ['https://npm.example.com/api/npm/remote/left-pad', 'left-pad', null, false],
    ['https://registry.npmjs.org/x/-/x-1.0.0-beta.2.tgz', 'x', '1.0.0-beta.2', true],
  ])('%s', (url, name, spec, versionMissing) => {
    expect(readRegistryUrl(url)).toMatchObject({ name, spec, versionMissing });
  });
});
