import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Diagnosis, type Blueprint, type BuildError, type StepName } from '@forge/shared';
import { makeBlueprint } from '@forge/testing';
import { makeTempDir } from '../../../test/support/temp-files.ts';
import { diagnose } from './index.ts';

/**
 * ScanBot never states what the project's files contradict: it reads the package.json of the folder
 * the plan used (the app's, in a workspace), and its advice about a package is never about the
 * uploaded project itself.
 */
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-diagnose-files-'));
});
afterEach(() => cleanup());

async function write(files: Record<string, unknown>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
}

async function run(opts: {
  lines: string[];
  step?: StepName;
  error: Partial<BuildError> & Pick<BuildError, 'code' | 'message'>;
  blueprint: Blueprint;
}): Promise<Diagnosis> {
  const d = await diagnose({
    step: opts.step ?? 'build',
    status: 'failed',
    error: opts.error,
    lines: opts.lines,
    blueprint: opts.blueprint,
    projectDir: dir,
  });
  expect(Diagnosis.parse(d)).toEqual(d);
  return d;
}

describe('a diagnosis the files do not contradict', () => {
  it('an unplanned Nx workspace whose package.json has a build script is not "no build script"', async () => {
    await write({
      'package.json': { name: 'nx-shop', private: true, scripts: { build: 'nx build' } },
      'nx.json': { targetDefaults: {} },
      'apps/shop/project.json': { name: 'shop', targets: { build: { executor: '@nx/angular:application' } } },
    });
    const message =
      'Forge does not know how to build this project: no build script, start script or index.html.';
    const d = await run({
      step: 'detect',
      lines: [],
      error: { code: 'PROJECT_NOT_BUILDABLE', message },
      blueprint: makeBlueprint({ kind: 'unknown', framework: 'unknown', build: null, outputDir: null }),
    });
    expect(d.code).not.toBe('MISSING_SCRIPT');
    expect(d.repair).toBeUndefined();
    expect(d.summary).toBe(
      `package.json has a "build" script (nx build), but Forge could not tell what it builds or how to serve it: ${message}`,
    );
    expect(d.suggestion).not.toMatch(/forge fix|Add "build"/);
  });

  it('a project with no build script at all is still MISSING_SCRIPT, with the framework build to repair it', async () => {
    await write({
      'package.json': { name: 'shop', scripts: { dev: 'vite' }, devDependencies: { vite: '^8.0.0' } },
    });
    const d = await run({
      step: 'detect',
      lines: [],
      error: { code: 'PROJECT_NOT_BUILDABLE', message: 'Forge does not know how to build this project.' },
      blueprint: makeBlueprint({ kind: 'unknown', framework: 'vite' }),
    });
    expect(d).toMatchObject({ code: 'MISSING_SCRIPT', repair: 'USE_FRAMEWORK_BUILD', file: 'package.json' });
  });

  it('reads the app folder the plan used: "Missing script" printed elsewhere is not claimed of the app that has one', async () => {
    await write({
      'package.json': { name: 'acme', private: true, workspaces: ['apps/*'] },
      'apps/web/package.json': { name: 'web', scripts: { build: 'vite build' } },
    });
    const d = await run({
      lines: ['npm error Missing script: "build"', 'npm error', 'npm error To see a list of scripts, run:'],
      error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
      blueprint: makeBlueprint({ appDir: 'apps/web', installDir: '.' }),
    });
    expect(d.code).not.toBe('MISSING_SCRIPT');
    expect(d.summary).not.toMatch(/has no "build" script/);
  });

  it('never tells the project to use an earlier version of itself (Yarn names the project as a package)', async () => {
    await write({ 'package.json': { name: 'chat-server', version: '1.0.0', engines: { node: '>=22' } } });
    const probableCause =
      'This was probably caused by the Node version: the project asks for Node >=22 (package.json) and this machine runs Node 20.20.2.';
    const d = await run({
      step: 'install',
      lines: [
        'yarn install v1.22.22',
        '[1/5] Validating package.json...',
        'error chat-server@1.0.0: The engine "node" is incompatible with this module. Expected version ">=22". Got "20.20.2"',
        'error Found incompatible module.',
      ],
      error: {
        code: 'INSTALL_FAILED',
        message: 'yarn install --frozen-lockfile exited with code 1',
        probableCause,
      },
      blueprint: makeBlueprint({
        packageManager: 'yarn',
        install: ['yarn', 'install', '--frozen-lockfile'],
        node: { wanted: '>=22', file: 'package.json', current: '20.20.2', satisfied: false },
      }),
    });
    expect(d.code).toBe('NODE_VERSION_MISMATCH');
    expect(`${d.summary} ${d.suggestion}`).not.toMatch(/version of chat-server/);
    expect(d.subjects ?? []).not.toContain('chat-server');
  });

  it('never tells the project to add itself to its dependencies (an import of its own name)', async () => {
    await write({
      'package.json': { name: 'shop', type: 'module', scripts: { build: 'node build.js' } },
      'build.js': "import { page } from 'shop/page';\nconsole.log(page);\n",
    });
    const d = await run({
      lines: [
        "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'shop' imported from " +
          path.join(dir, 'build.js'),
        '    at packageResolve (node:internal/modules/esm/resolve:873:9)',
      ],
      error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
      blueprint: makeBlueprint(),
    });
    expect(d.code).not.toBe('MISSING_PACKAGE');
    expect(`${d.summary} ${d.suggestion}`).not.toMatch(/Add "shop"/);
  });
});
