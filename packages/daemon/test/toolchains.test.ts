import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Build, UploadResult } from '@forge/shared';
import { PACKAGE_MANAGER_PROJECTS } from '@forge/testing';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';

// Real package managers from the real npm registry, through a real daemon. One FORGE_HOME for the
// file, so each tool is fetched once into its toolchains/ and every later build reuses it.

afterEach(cleanup);

let home: string;
beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-toolchains-home-'));
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

type Pm = keyof typeof PACKAGE_MANAGER_PROJECTS;

async function logsOf(app: TestApp, buildId: string): Promise<string[]> {
  const res = await fetch(`${app.url}/api/builds/${buildId}/logs?limit=10000`);
  const body = (await res.json()) as { entries: Array<{ message: string }> };
  return body.entries.map((e) => e.message);
}

/** Upload a fixture as `<name>.zip` and wait for its build; a failure shows its log. */
async function build(
  app: TestApp,
  pm: Pm,
  name: string,
  files: Record<string, string> = PACKAGE_MANAGER_PROJECTS[pm],
) {
  const live = await watch(app);
  const result = (await (await upload(app, makeZip(`${name}.zip`, files))).json()) as UploadResult;
  const done = await live.finished(result.buildId!, 170_000);
  if (done.status !== 'succeeded') {
    throw new Error(
      `${name}: build ${done.status} ${JSON.stringify(done.error)}\n${(await logsOf(app, done.id)).slice(-40).join('\n')}`,
    );
  }
  return done;
}

const step = (b: Build, name: string) => b.steps.find((s) => s.name === name);

describe.each<[Pm, { tool: string; package: string; request: string; file: string }]>([
  ['pnpm', { tool: 'pnpm', package: 'pnpm', request: '10', file: 'pnpm-lock.yaml' }],
  ['yarn-classic', { tool: 'yarn', package: 'yarn', request: '1', file: 'yarn.lock' }],
  ['yarn-berry', { tool: 'yarn', package: '@yarnpkg/cli-dist', request: '4', file: 'yarn.lock' }],
  ['bun', { tool: 'bun', package: 'bun', request: '1', file: 'bun.lock' }],
])('a %s project', (pm, expected) => {
  it(
    'is built and previewed with the package manager its lockfile names, fetched into toolchains/',
    { timeout: 180_000 },
    async () => {
      const app = await startTestApp({ home });
      const done = await build(app, pm, `${pm}-app`);

      // The plan names the tool and its evidence; the record has the exact version provisioned.
      const toolchain = done.blueprint!.toolchain!;
      expect(toolchain).toMatchObject({ ...expected, source: 'lockfile' });
      expect(toolchain.version).toMatch(new RegExp(`^${expected.request}\\.\\d+\\.\\d+$`));
      const decision = done.blueprint!.decisions.find((d) => d.field === 'toolchain');
      expect(decision).toMatchObject({ value: `${expected.tool}@${expected.request}`, file: expected.file });
      expect(done.blueprint!.install![0]).toBe(expected.tool);

      expect(step(done, 'toolchain')).toMatchObject({ botName: 'DependencyBot', status: 'succeeded' });
      expect(step(done, 'install')?.status).toBe('succeeded');
      const dir = path.join(home, 'toolchains', `${expected.package.replace('/', '+')}@${toolchain.version}`);
      expect(fs.existsSync(path.join(dir, 'bin', expected.tool))).toBe(true);
      const logs = await logsOf(app, done.id);
      expect(
        logs.some((l) => l.startsWith(`Fetched ${expected.tool} ${toolchain.version} into toolchains/`)),
      ).toBe(true);

      // The build ran through the provisioned tool (its user agent names it), and the preview serves it.
      const page = await (await fetch(done.previewUrl!)).text();
      expect(page).toContain(`&lt;built&gt; by ${expected.tool}/${toolchain.version}`);
      // …from toolchains/, not a global install of the same name (Berry runs scripts through a shim in /tmp).
      if (pm !== 'yarn-berry') {
        const ran = logs.find((l) => l.startsWith('built with '));
        expect(ran).toContain(` from ${dir}${path.sep}`);
      }
    },
  );
});

describe('toolchains shared by every project', () => {
  it('reuse a fetched tool for another project without the network', { timeout: 120_000 }, async () => {
    const app = await startTestApp({ home });
    const files = { ...PACKAGE_MANAGER_PROJECTS.pnpm, 'README.md': 'another project, same tool' };
    const done = await build(app, 'pnpm', 'another-pnpm-app', files);
    expect(step(done, 'toolchain')).toMatchObject({ status: 'cached' });
    expect(step(done, 'toolchain')?.detail).toMatch(
      /^pnpm 10\.\d+\.\d+ from toolchains\/ \(pnpm-lock\.yaml\)$/,
    );
    expect(fs.readdirSync(path.join(home, 'toolchains')).filter((n) => n.startsWith('pnpm@'))).toHaveLength(
      1,
    );
  });

  it('fail with TOOLCHAIN_UNAVAILABLE saying what was tried', { timeout: 120_000 }, async () => {
    const app = await startTestApp({ home });
    const live = await watch(app);
    const files = {
      ...PACKAGE_MANAGER_PROJECTS.pnpm,
      'package.json': JSON.stringify({
        name: 'pm-app',
        packageManager: 'pnpm@10.999.0',
        scripts: { build: 'node build.js' },
        dependencies: { 'escape-html': '1.0.3' },
      }),
    };
    const result = (await (await upload(app, makeZip('no-such-pnpm.zip', files))).json()) as UploadResult;
    const done = await live.finished(result.buildId!, 110_000);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'TOOLCHAIN_UNAVAILABLE' });
    expect(done.error!.message).toMatch(
      /^Could not fetch pnpm@10\.999\.0 from https?:\/\/\S+: No matching version found for pnpm@10\.999\.0/,
    );
    expect(step(done, 'install')).toBeUndefined();
  });
});

describe('an npm project without a lockfile', () => {
  it(
    'installs from the shared store with pnpm (hoisted), and a second project links the same files',
    { timeout: 120_000 },
    async () => {
      const app = await startTestApp({ home });
      const first = await build(app, 'npm-no-lockfile', 'store-app');
      expect(first.blueprint).toMatchObject({
        packageManager: 'npm',
        toolchain: { tool: 'pnpm', package: 'pnpm', source: 'default', request: '10' },
        build: ['npm', 'run', 'build'],
      });
      expect(first.blueprint!.decisions.find((d) => d.field === 'install')?.rule).toMatch(
        /^no lockfile: installed from Forge's shared store with pnpm \(hoisted/,
      );
      expect(step(first, 'install')?.detail).toMatch(/^no lockfile: from Forge's shared store with pnpm/);
      // Scripts ran with npm, from a node_modules laid out like npm's.
      expect(await (await fetch(first.previewUrl!)).text()).toContain('&lt;built&gt; by npm/');
      const installed = path.join(home, 'projects', 'store-app', 'node_modules', 'escape-html', 'index.js');
      expect(fs.statSync(installed).nlink).toBeGreaterThan(1);

      const second = await build(app, 'npm-no-lockfile', 'store-app-2', {
        ...PACKAGE_MANAGER_PROJECTS['npm-no-lockfile'],
        'README.md': 'a different project with the same dependency',
      });
      const again = path.join(home, 'projects', 'store-app-2', 'node_modules', 'escape-html', 'index.js');
      // The same file on disk: hard links into FORGE_HOME/store, nothing unpacked twice.
      expect(fs.statSync(again).ino).toBe(fs.statSync(installed).ino);
      expect(step(second, 'toolchain')?.status).toBe('cached');
    },
  );
});
